import { describe, expect, it } from 'vitest'
import { createReplyDeadlines, ReplyTimeoutError } from './reply-deadlines'

const never = () => new Promise<never>(() => {})
const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))

describe('reply deadlines', () => {
  it('passes on a reply that comes in time, value or error', async () => {
    const deadlines = createReplyDeadlines(1000)
    try {
      expect(await deadlines.within(later('pong', 5))).toBe('pong')
      await expect(deadlines.within(Promise.reject(new Error('WRONGTYPE')))).rejects.toThrow('WRONGTYPE')
    } finally {
      deadlines.close()
    }
  })

  it('fails a reply that does not come in time, and only that one', async () => {
    const deadlines = createReplyDeadlines(40)
    try {
      const hung = deadlines.within(never())
      const answered = deadlines.within(later('ok', 5))
      const sentLater = later(undefined, 20).then(() => deadlines.within(never()))
      await expect(hung).rejects.toBeInstanceOf(ReplyTimeoutError)
      await expect(hung).rejects.toThrow('no reply within 40 ms')
      expect(await answered).toBe('ok')
      // Each command has its own deadline, counted from when it was sent.
      await expect(sentLater).rejects.toBeInstanceOf(ReplyTimeoutError)
    } finally {
      deadlines.close()
    }
  })

  it('ignores a reply that comes after its deadline', async () => {
    const deadlines = createReplyDeadlines(10)
    try {
      let arrive: (value: string) => void = () => {}
      const late = deadlines.within(new Promise<string>((resolve) => (arrive = resolve)))
      await expect(late).rejects.toBeInstanceOf(ReplyTimeoutError)
      arrive('too late')
      expect(await deadlines.within(later('next', 1))).toBe('next')
    } finally {
      deadlines.close()
    }
  })
})
