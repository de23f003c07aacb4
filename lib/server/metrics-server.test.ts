import { describe, expect, it } from 'vitest'
import { readMetricsConfig } from './metrics-server'

describe('METRICS_PORT', () => {
  it('unset or blank: no metrics served', () => {
    expect(readMetricsConfig({})).toBeUndefined()
    expect(readMetricsConfig({ METRICS_PORT: '  ', PORT: '3000' })).toBeUndefined()
  })

  it('a port of its own, on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(readMetricsConfig({ METRICS_PORT: '9464', PORT: '3000' })).toEqual({ port: 9464, host: '127.0.0.1' })
    expect(readMetricsConfig({ METRICS_PORT: ' 9464 ', PORT: '3000', METRICS_HOST: '0.0.0.0' })).toEqual({ port: 9464, host: '0.0.0.0' })
  })

  it('refused at the start when it is the app’s public port, PORT or the 3000 it defaults to', () => {
    const publicPort = /METRICS_PORT must not be the app's own PORT \(8080\): the metrics are never served on the public port/
    expect(() => readMetricsConfig({ METRICS_PORT: '8080', PORT: '8080' })).toThrow(publicPort)
    expect(() => readMetricsConfig({ METRICS_PORT: '8080', PORT: ' 8080 ' })).toThrow(publicPort)
    expect(() => readMetricsConfig({ METRICS_PORT: '3000' })).toThrow(/must not be the app's own PORT \(3000\)/)
    expect(() => readMetricsConfig({ METRICS_PORT: '3000', PORT: '' })).toThrow(/must not be the app's own PORT \(3000\)/)
    // Another PORT frees 3000 for the metrics.
    expect(readMetricsConfig({ METRICS_PORT: '3000', PORT: '8080' })).toEqual({ port: 3000, host: '127.0.0.1' })
  })

  it('refused at the start when it is not a port number, saying what was given', () => {
    for (const value of ['metrics', '0', '65536', '-1', '9464.5', '9464abc']) {
      expect(() => readMetricsConfig({ METRICS_PORT: value, PORT: '3000' })).toThrow(`METRICS_PORT must be a port number (1–65535); got "${value}".`)
    }
  })
})
