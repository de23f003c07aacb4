import { once } from 'node:events'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
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

  it('passes on a reply that arrived while the event loop was busy past its deadline', async () => {
    // An echo server in a process of its own on the loopback: the reply is in the socket when
    // this process's event loop comes back. Once the echo is written, the server creates a file:
    // this process, busy, looks for it without its event loop, however long the echo takes.
    const echoed = path.join(mkdtempSync(path.join(tmpdir(), 'reply-deadlines-')), 'echoed')
    const server = `require('net').createServer((s) => s.on('data', (d) => s.write(d, () => require('fs').writeFileSync(${JSON.stringify(echoed)}, '')))).listen(0, '127.0.0.1', function () { console.log(this.address().port) })`
    const echo = spawn(process.execPath, ['-e', server])
    const [port] = await once(echo.stdout, 'data')
    const client = connect(Number(String(port).trim()), '127.0.0.1')
    await once(client, 'connect')
    const deadlines = createReplyDeadlines(20)
    try {
      const sent = performance.now()
      const reply = deadlines.within(once(client, 'data').then(([data]) => String(data)))
      client.write('pong')
      // The loop is busy past the deadline while the echo arrives: the timer and the reply are
      // both due when it comes back, and the timers' turn comes first.
      while (!existsSync(echoed) || performance.now() < sent + 40) {
        if (performance.now() > sent + 60_000) throw new Error('the echo server wrote nothing back within 60 s')
      }
      expect(await reply).toBe('pong')
    } finally {
      deadlines.close()
      client.destroy()
      echo.kill()
      rmSync(path.dirname(echoed), { recursive: true, force: true })
    }
  })
})
