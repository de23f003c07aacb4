import { createScope, ensure, sleep, suspend, withResolvers } from 'effection'
import { afterAll, describe, expect, it } from 'vitest'
import { openNdjsonStream } from './ndjson-stream'
import { createTurnRunner } from './turn-runner'
import { createLogger, serverLogger, type Logger } from '../telemetry'

const [scope, destroy] = createScope()
const runner = createTurnRunner(scope)
afterAll(() => destroy())
const decoder = new TextDecoder()
const linesOf = (chunk: Uint8Array | undefined) => decoder.decode(chunk).split('\n').filter(Boolean).map((line) => JSON.parse(line))

describe('the NDJSON stream', () => {
  it('streams nothing when the turn is refused while it is prepared: the refusal rejects, and onEnd is not called', async () => {
    let ran = false
    let ends = 0
    const refusal = new Error('refused before the first byte')
    await expect(
      openNdjsonStream({
        runner,
        // eslint-disable-next-line require-yield
        prepare: function* () {
          throw refusal
        },
        run: function* () {
          ran = true
        },
        onEnd: () => ends++,
      }),
    ).rejects.toBe(refusal)
    expect(ran).toBe(false)
    expect(ends).toBe(0)
  })

  it("tells onEnd the code of the error event that ended the turn, and nothing for a turn that completed", async () => {
    const ends: Array<string | undefined> = []
    for (const last of [{ type: 'error', code: 'model_timeout', message: 'Too slow.' }, { type: 'complete', text: 'done' }] as const) {
      const stream = await openNdjsonStream({
        runner,
        prepare: function* () {},
        run: function* (_prepared, emit) {
          emit({ type: 'text', content: 'a piece' })
          emit(last)
        },
        onEnd: (errorCode) => ends.push(errorCode),
      })
      const reader = stream.getReader()
      while (!(await reader.read()).done);
    }
    expect(ends).toEqual(['model_timeout', undefined])
  })

  it('hands the prepared value to the turn', async () => {
    const stream = await openNdjsonStream({
      runner,
      // eslint-disable-next-line require-yield
      prepare: function* () {
        return 'the plan'
      },
      run: function* (plan, emit) {
        emit({ type: 'text', content: plan })
      },
    })
    const reader = stream.getReader()
    expect(linesOf((await reader.read()).value)).toEqual([{ type: 'text', content: 'the plan' }])
    expect((await reader.read()).done).toBe(true)
  })

  it('writes nothing until the consumer reads, then every line ready in one chunk', async () => {
    const emitted = withResolvers<void>()
    // The last line waits for the first read, however long that takes.
    const firstRead = withResolvers<void>()
    const stream = await openNdjsonStream({
      prepare: function* () {},
      runner,
      run: function* (_prepared, emit) {
        for (let index = 0; index < 3; index++) emit({ type: 'text', content: `piece ${index}` })
        emitted.resolve()
        yield* firstRead.operation
        emit({ type: 'complete', text: 'piece 0piece 1piece 2' })
      },
    })
    await scope.run(() => emitted.operation)
    // Pulled on demand: nothing was queued inside the stream before the first read.
    expect(stream.locked).toBe(false)
    const reader = stream.getReader()
    const first = await reader.read()
    firstRead.resolve()
    expect(linesOf(first.value)).toEqual([0, 1, 2].map((index) => ({ type: 'text', content: `piece ${index}` })))
    expect(linesOf((await reader.read()).value)).toEqual([{ type: 'complete', text: 'piece 0piece 1piece 2' }])
    expect((await reader.read()).done).toBe(true)
  })

  it('halts the turn when the consumer cancels (Stop), and runs its clean-up', async () => {
    const cleaned = withResolvers<void>()
    const started = withResolvers<void>()
    const stream = await openNdjsonStream({
      prepare: function* () {},
      runner,
      run: function* (_prepared, emit) {
        yield* ensure(() => cleaned.resolve())
        emit({ type: 'text', content: 'working' })
        started.resolve()
        yield* suspend()
      },
    })
    const reader = stream.getReader()
    expect(linesOf((await reader.read()).value)).toEqual([{ type: 'text', content: 'working' }])
    await scope.run(() => started.operation)
    await reader.cancel()
    await scope.run(() => cleaned.operation)
  })

  it('ends the body only after the turn’s clean-up when the request is aborted', async () => {
    const controller = new AbortController()
    let cleanedUp = false
    const stream = await openNdjsonStream({
      prepare: function* () {},
      runner,
      signal: controller.signal,
      run: function* (_prepared, emit) {
        yield* ensure(function* () {
          yield* sleep(20)
          cleanedUp = true
          // Reported to nobody: the client has gone.
          emit({ type: 'error', code: 'late', message: 'never written' })
        })
        emit({ type: 'text', content: 'working' })
        yield* suspend()
      },
    })
    const reader = stream.getReader()
    expect(linesOf((await reader.read()).value)).toEqual([{ type: 'text', content: 'working' }])
    controller.abort()
    expect(await reader.read()).toEqual({ done: true, value: undefined })
    expect(cleanedUp).toBe(true)
  })

  it('ends the turn with turn_failed when storing a batch fails unexpectedly, and logs it with a code, without the error’s words', async () => {
    const lines: string[] = []
    const global = globalThis as typeof globalThis & { serverLogger?: Logger }
    const before = serverLogger()
    global.serverLogger = createLogger({ level: 'info', pretty: false, write: (line) => lines.push(line) })
    try {
      const stream = await openNdjsonStream({
        runner,
        prepare: function* () {},
        run: function* (_prepared, emit) {
          emit({ type: 'text', content: 'book a table for Ada' })
          yield* suspend()
        },
        keep: async () => {
          throw new RangeError('row too large: "book a table for Ada"')
        },
      })
      const reader = stream.getReader()
      expect(linesOf((await reader.read()).value)).toEqual([{ type: 'error', code: 'turn_failed', message: 'The chat could not be stored; this turn stopped here.' }])
      expect(await reader.read()).toEqual({ done: true, value: undefined })
      expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ level: 'error', msg: 'storing a chat turn failed', code: 'turn_store_failed', errorType: 'RangeError' })])
      expect(lines.join('')).not.toContain('Ada')
    } finally {
      global.serverLogger = before
    }
  })
})
