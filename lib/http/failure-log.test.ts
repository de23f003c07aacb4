import { describe, expect, it } from 'vitest'
import { createLogger } from '../telemetry'
import { logFailure } from './failure-log'

function capture(content: boolean) {
  const lines: string[] = []
  const logger = createLogger({ level: 'info', pretty: false, content, write: (line) => lines.push(line) })
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) }
}

describe('a failure on a request path, logged', () => {
  const failure = new TypeError('could not read "book a table for Ada at 8"')

  it('says its code and the error’s name, never its message or stack, without LOG_CONTENT', () => {
    const { logger, lines } = capture(false)
    logFailure('turn_crashed', 'chat turn crashed', failure, { logger })
    expect(lines()).toEqual([{ time: expect.any(String), level: 'error', msg: 'chat turn crashed', code: 'turn_crashed', errorType: 'TypeError' }])
    expect(JSON.stringify(lines())).not.toContain('Ada')
  })

  it('carries the message and the stack with LOG_CONTENT=1', () => {
    const { logger, lines } = capture(true)
    logFailure('turn_crashed', 'chat turn crashed', failure, { logger })
    const [line] = lines()
    expect(line).toMatchObject({ code: 'turn_crashed', errorType: 'TypeError', message: 'could not read "book a table for Ada at 8"' })
    expect(line!.stack).toContain('failure-log.test.ts')
  })

  it('names what was thrown when it is not an Error', () => {
    const { logger, lines } = capture(false)
    logFailure('turn_stop_failed', 'stopping a chat turn failed', 'Ada', { logger })
    expect(lines()).toEqual([expect.objectContaining({ code: 'turn_stop_failed', errorType: 'string' })])
    expect(JSON.stringify(lines())).not.toContain('Ada')
  })
})

describe('a failure the server gets over by itself', () => {
  it('is written at warn, with a description of our own on the line always, and still no message without LOG_CONTENT', () => {
    const { logger, lines } = capture(false)
    logFailure('lease_renew_failed', 'a lease could not be renewed', new Error('Ada’s booking'), { level: 'warn', detail: 'connect ECONNREFUSED 127.0.0.1:6379', logger })
    expect(lines()).toEqual([{ time: expect.any(String), level: 'warn', msg: 'a lease could not be renewed', code: 'lease_renew_failed', errorType: 'Error', detail: 'connect ECONNREFUSED 127.0.0.1:6379' }])
  })
})
