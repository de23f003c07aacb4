import { describe, expect, it } from 'vitest'
import { captureContent, tracesProtocol, tracingConfigured } from './tracing'

describe('when traces are exported', () => {
  it('only with an OTLP endpoint, and never with the SDK disabled', () => {
    expect(tracingConfigured({})).toBe(false)
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false)
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true)
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true)
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false)
  })

  it('in protobuf unless JSON is asked for; any other protocol is a setting to change', () => {
    expect(tracesProtocol({})).toBe('http/protobuf')
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json')
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf')
    expect(() => tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf or http\/json/)
  })

  it('with contents only when opted in', () => {
    const capture = (value: string) => captureContent({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: value })
    expect(captureContent({})).toBe(false)
    expect(capture('true')).toBe(true)
    expect(capture(' TRUE ')).toBe(true)
    for (const value of ['', 'false', '0', '1', 'yes', 'on', 'truthy']) expect(capture(value), value).toBe(false)
  })
})
