import { createQueue, run, spawn, useAbortSignal, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { ElicitAnswer } from '../tools/types'
import { makePlugin } from './make-plugin'
import { createPluginClientContext, executePluginElicitHandler, PluginHandlerError, type RenderedComponent } from './plugin-executor'
import { createPluginRegistry } from './plugin-registry'
import type { Question } from '../protocol/question'
import type { ElicitComponentProps } from './types'

function SizePicker(_props: ElicitComponentProps<'S' | 'M' | 'L'> & { sizes: string[]; note?: string }) {
  return null
}
function Confirm(_props: ElicitComponentProps<boolean> & { question: string }) {
  return null
}

const pizzaTool = createMcpTool('order_pizza')
  .elicits({
    pickSize: { response: z.object({ size: z.enum(['S', 'M', 'L']) }), context: z.object({ sizes: z.array(z.string()) }) },
    confirm: z.object({ ok: z.boolean() }),
  })
  .execute(function* () {})

/** What the handlers saw, so tests can look at it after they ran. */
const seen: { requests: unknown[]; cleanedUp: number } = { requests: [], cleanedUp: 0 }

const pizzaPlugin = makePlugin<typeof pizzaTool>('order_pizza')
  .onElicit({
    *pickSize(request, ctx) {
      seen.requests.push(request)
      try {
        const size = yield* ctx.render(SizePicker, { sizes: request.context.sizes, note: request.message })
        return { action: 'accept', content: { size } }
      } finally {
        seen.cleanedUp++
      }
    },
    *confirm(request, ctx) {
      seen.requests.push(request)
      const first = yield* ctx.render(Confirm, { question: `${request.message} (1/3)` })
      const second = yield* ctx.render(Confirm, { question: `${request.message} (2/3)` })
      const third = yield* ctx.render(Confirm, { question: `${request.message} (3/3)` })
      return first && second && third ? { action: 'accept', content: { ok: true } } : { action: 'decline' }
    },
  })
  .build()

// Loaded on the first question, as the app's plugins are.
const registry = createPluginRegistry([{ toolName: 'order_pizza', load: async () => pizzaPlugin }])

function requestFor(key: string, context: Record<string, unknown> = {}, toolName = 'order_pizza'): Question {
  return {
    elicitId: `${toolName}/${key}/call-1/2`,
    sessionId: 'call-1',
    toolName,
    key,
    callId: 'call-1',
    message: `Answer ${key}`,
    schema: { type: 'object' },
    context,
  }
}

/**
 * Run a handler the way the chat does: in its own task, with the scope's abort signal, every
 * `show` collected and also queued so a test can wait for the next one.
 */
function* startHandler(request: Question, recorded?: unknown[]) {
  const shown: RenderedComponent[] = []
  const shows = createQueue<RenderedComponent, never>()
  let signal: AbortSignal | undefined
  const task = yield* spawn(function* (): Operation<ElicitAnswer<unknown>> {
    signal = yield* useAbortSignal()
    const ctx = createPluginClientContext({
      request,
      signal,
      recorded,
      show(rendered) {
        shown.push(rendered)
        shows.add(rendered)
      },
    })
    return yield* executePluginElicitHandler({ registry, request, ctx })
  })
  return {
    task,
    shown,
    signal: () => signal!,
    *nextShow(): Operation<RenderedComponent> {
      const next = yield* shows.next()
      return next.value
    },
  }
}

describe('executePluginElicitHandler', () => {
  it('runs the registered handler with the request as the chat keeps it, its context under `context`', async () => {
    seen.requests = []
    const request = requestFor('pickSize', { sizes: ['S', 'M'] })
    const result = await run(function* () {
      const handler = yield* startHandler(request)
      const rendered = yield* handler.nextShow()
      rendered.respond('M')
      return yield* handler.task
    })
    expect(result).toEqual({ action: 'accept', content: { size: 'M' } })
    expect(seen.requests).toEqual([request])
  })

  it('lets ctx.render show the component with its props and resume with the value passed to respond', async () => {
    const request = requestFor('pickSize', { sizes: ['S', 'M', 'L'] })
    await run(function* () {
      const handler = yield* startHandler(request)
      const rendered = yield* handler.nextShow()
      expect(rendered).toMatchObject({ index: 0, Component: SizePicker, props: { sizes: ['S', 'M', 'L'], note: 'Answer pickSize' } })
      expect(rendered.answered).toBe(false)

      rendered.respond('L')
      const answered = yield* handler.nextShow()
      expect(answered).toMatchObject({ index: 0, Component: SizePicker, props: rendered.props, answered: true, response: 'L' })

      expect(yield* handler.task).toEqual({ action: 'accept', content: { size: 'L' } })
      expect(handler.shown).toHaveLength(2)
    })
  })

  it('ignores a second respond to the same render', async () => {
    const request = requestFor('pickSize', { sizes: ['S', 'M', 'L'] })
    await run(function* () {
      const handler = yield* startHandler(request)
      const rendered = yield* handler.nextShow()
      rendered.respond('S')
      rendered.respond('L')
      expect(yield* handler.task).toEqual({ action: 'accept', content: { size: 'S' } })
      rendered.respond('M')
      expect(handler.shown.map((shown) => [shown.answered, shown.response])).toEqual([
        [false, undefined],
        [true, 'S'],
      ])
    })
  })

  it('numbers the renders of one handler and resumes each with its own answer', async () => {
    const request = requestFor('confirm')
    await run(function* () {
      const handler = yield* startHandler(request)
      for (const index of [0, 1]) {
        const rendered = yield* handler.nextShow()
        expect(rendered).toMatchObject({ index, Component: Confirm, props: { question: `Answer confirm (${index + 1}/3)` } })
        rendered.respond(true)
        expect(yield* handler.nextShow()).toMatchObject({ answered: true, response: true })
      }
      const last = yield* handler.nextShow()
      expect(last.index).toBe(2)
      last.respond(false)
      expect(yield* handler.task).toEqual({ action: 'decline' })
    })
  })

  it('replays recorded answers at once for the first renders, then waits for the next one', async () => {
    const request = requestFor('confirm')
    await run(function* () {
      const handler = yield* startHandler(request, [true, true])
      const first = yield* handler.nextShow()
      const second = yield* handler.nextShow()
      const third = yield* handler.nextShow()
      expect(first).toMatchObject({ index: 0, props: { question: 'Answer confirm (1/3)' }, answered: true, response: true })
      expect(second).toMatchObject({ index: 1, props: { question: 'Answer confirm (2/3)' }, answered: true, response: true })
      expect(third).toMatchObject({ index: 2, props: { question: 'Answer confirm (3/3)' } })
      expect(third.answered).toBe(false)

      // A replayed render is already answered: responding to it again changes nothing.
      first.respond(false)
      third.respond(true)
      expect(yield* handler.task).toEqual({ action: 'accept', content: { ok: true } })
      expect(handler.shown.map((shown) => [shown.index, shown.answered, shown.response])).toEqual([
        [0, true, true],
        [1, true, true],
        [2, false, undefined],
        [2, true, true],
      ])
    })
  })

  it('finishes without any render when every render was recorded', async () => {
    const request = requestFor('confirm')
    const result = await run(function* () {
      const handler = yield* startHandler(request, [true, false, true])
      return yield* handler.task
    })
    expect(result).toEqual({ action: 'decline' })
  })

  it('gives a PluginHandlerError for a tool without a plugin', async () => {
    const request = requestFor('pickSize', {}, 'book_hotel')
    const error = await run(function* () {
      const handler = yield* startHandler(request)
      return yield* handler.task
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(PluginHandlerError)
    expect(error).toMatchObject({ name: 'PluginHandlerError', message: 'No plugin is registered for tool "book_hotel".' })
  })

  it.each(['pickColour', 'toString', 'constructor'])('gives a PluginHandlerError for the unknown key %s', async (key) => {
    const request = requestFor(key)
    const error = await run(function* () {
      const handler = yield* startHandler(request)
      return yield* handler.task
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(PluginHandlerError)
    expect(error).toMatchObject({ message: `Plugin "order_pizza" has no handler for elicitation "${key}".` })
  })

  it('ends cleanly when halted while a render waits, and sends no answer', async () => {
    const request = requestFor('pickSize', { sizes: ['S'] })
    const cleanedUpBefore = seen.cleanedUp
    await run(function* () {
      const handler = yield* startHandler(request)
      const rendered = yield* handler.nextShow()
      expect(handler.signal().aborted).toBe(false)

      yield* handler.task.halt()

      expect(handler.signal().aborted).toBe(true)
      expect(seen.cleanedUp).toBe(cleanedUpBefore + 1)
      rendered.respond('S')
      expect(handler.shown).toHaveLength(1)
      expect(handler.shown[0]!.answered).toBe(false)
      let outcome: unknown
      try {
        outcome = yield* handler.task
      } catch (error) {
        outcome = error
      }
      expect(outcome).toBeInstanceOf(Error)
      expect((outcome as Error).message).toMatch(/halted/)
    })
  })
})
