import { describe, expect, it } from 'vitest'
import { createLogger, readLogContent, readLogLevel } from './logger'

const at = new Date('2026-11-29T02:30:00.123Z')

function capture(level: Parameters<typeof createLogger>[0]['level'], pretty = false) {
  const lines: string[] = []
  const logger = createLogger({ level, pretty, write: (line) => lines.push(line), now: () => at })
  return { logger, lines }
}

describe('the server log', () => {
  it('writes one JSON object per line: time, level, msg, then the fields given, none undefined', () => {
    const { logger, lines } = capture('info')
    logger.info('request', { method: 'POST', route: '/api/chat', status: 400, code: 'invalid_request', scope: undefined })
    expect(lines).toEqual([`{"time":"2026-11-29T02:30:00.123Z","level":"info","msg":"request","method":"POST","route":"/api/chat","status":400,"code":"invalid_request"}\n`])
  })

  it('writes only lines at LOG_LEVEL or above', () => {
    const { logger, lines } = capture('warn')
    logger.debug('d')
    logger.info('i')
    logger.warn('w')
    logger.error('e')
    expect(lines.map((line) => JSON.parse(line).level)).toEqual(['warn', 'error'])
    expect(logger.enabled('info')).toBe(false)
    expect(capture('silent').logger.enabled('error')).toBe(false)
  })

  it('is readable in a terminal', () => {
    const { logger, lines } = capture('info', true)
    logger.warn('request', { method: 'GET', status: 404, aborted: undefined })
    expect(lines).toEqual(['02:30:00.123 WARN  request method=GET status=404\n'])
  })

  it('reads LOG_LEVEL, and says what is wrong with a bad one', () => {
    expect(readLogLevel({})).toBe('info')
    expect(readLogLevel({ LOG_LEVEL: ' DEBUG ' })).toBe('debug')
    expect(() => readLogLevel({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL must be one of debug, info, warn, error, silent; got "loud".')
  })

  it('reads LOG_CONTENT: off unless 1, and says what is wrong with a bad one', () => {
    expect(readLogContent({})).toBe(false)
    expect(readLogContent({ LOG_CONTENT: '0' })).toBe(false)
    expect(readLogContent({ LOG_CONTENT: '1' })).toBe(true)
    expect(() => readLogContent({ LOG_CONTENT: 'yes' })).toThrow('LOG_CONTENT must be 1 or 0; got "yes".')
  })
})
