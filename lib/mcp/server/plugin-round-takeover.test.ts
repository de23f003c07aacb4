import { createScope, suspend, withResolvers, type Operation } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemorySessionStore } from '../../sessions'
import type { SampleResult } from '../../tools/types'
import { roundBinding } from './mcp-work-in-progress'
import { answerPluginRound, type PluginToolServing } from './register-plugin-tool'
import { reportingTo } from './relay-messages'
import { RoundLedger } from '../../sessions/round-ledger'
import { createRoundStateCodec } from './round-state'
import { createGatedTool } from './testing/gated-tool'
import { warnFailure } from '../../http/failure-log'

const LEASE_MS = 1_000
const BINDING = roundBinding('tools/call', '')
const ARGS = { guests: 2 }

// On a clock the tests move: a lease passes when a test says so, never by a stall of the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
})
const scopes: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const destroy of scopes.splice(0)) await destroy()
  vi.useRealTimers()
})

/**
 * A round of `reserve_table` (`answerPluginRound`, as the relay and the SDK's handler run it), on
 * a ledger of its own, counting the steps and model calls it makes; its step passes `gate` (open
 * by default).
 */
function serve(gate: () => Operation<void> = function* () {}) {
  const [scope, destroy] = createScope()
  scopes.push(destroy)
  const counted = { steps: 0, modelCalls: 0 }
  const tool = createGatedTool(function* () {
    counted.steps++
    yield* gate()
  })
  const ledger = new RoundLedger(createMemorySessionStore(), 60_000, warnFailure, LEASE_MS)
  const serving: PluginToolServing = {
    scope,
    ledger,
    codec: createRoundStateCodec({ secret: 's'.repeat(40), ttlSeconds: 60, bind: () => BINDING }),
    // eslint-disable-next-line require-yield
    *sample(): Generator<never, SampleResult> {
      counted.modelCalls++
      return { text: 'Welcome!' }
    },
  }
  const round = (options: { state?: Parameters<typeof answerPluginRound>[0]['state']; responses?: Record<string, unknown>; takingOver?: boolean; signal?: AbortSignal }) =>
    answerPluginRound({
      tool,
      args: ARGS,
      state: options.state,
      responses: options.responses,
      capabilities: { elicitation: { form: {} } },
      reporting: reportingTo([], undefined, undefined),
      signal: options.signal ?? new AbortController().signal,
      seal: async (state) => serving.codec.seal(state, BINDING),
      serving,
      takingOver: options.takingOver,
    })
  return { round, ledger, counted, codec: serving.codec, scope }
}

/** The call's first round, asking for a time: the state the next round continues, and the answer to it. */
async function atQuestion(served: ReturnType<typeof serve>) {
  const first = (await served.round({})) as { inputRequests: Record<string, unknown>; requestState: string }
  const [key] = Object.keys(first.inputRequests)
  const state = served.codec.open(first.requestState, BINDING)!
  return { state, responses: { [key!]: { action: 'accept', content: { time: '20:00' } } } }
}

describe('a round of a plugin tool taken over from a runner presumed dead', () => {
  it('waits out the claim its runner still holds, and gets that runner’s answer when it records one: the round runs once', async () => {
    const served = serve()
    const { state, responses } = await atQuestion(served)
    // The first runner claimed the state and is still at work.
    const held = await served.scope.run(() => served.ledger.claim({ stateId: state.id, toolName: 'reserve_table' }))
    expect(held).toEqual({ kind: 'claimed', version: 1 })
    const takingOver = served.round({ state, responses, takingOver: true })
    const answer = { content: [{ type: 'text', text: '{}' }], structuredContent: { status: 'reserved', code: 'TBL-FIRST' } }
    await served.scope.run(() => served.ledger.answer({ stateId: state.id, toolName: 'reserve_table', version: 1, result: answer }))
    // The take-over reads the claim again when the lease ends: it finds the answer.
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    expect(await takingOver).toEqual(answer)
    expect(served.counted).toEqual({ steps: 0, modelCalls: 0 })
  })

  it('takes the claim over once its lease has passed without a renewal, and runs the round', async () => {
    const served = serve()
    const { state, responses } = await atQuestion(served)
    await served.scope.run(() => served.ledger.claim({ stateId: state.id, toolName: 'reserve_table' }))
    let settled = false
    const round = served.round({ state, responses, takingOver: true }).finally(() => (settled = true))
    // Not a moment before the lease has passed.
    await vi.advanceTimersByTimeAsync(LEASE_MS - 1)
    expect(settled).toBe(false)
    expect(served.counted.steps).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    const result = (await round) as { structuredContent?: Record<string, unknown> }
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', note: 'Welcome!', code: expect.stringMatching(/^TBL-/) })
    expect(served.counted).toEqual({ steps: 1, modelCalls: 1 })
    // The state is answered: presented again, it gets the same reservation.
    expect(await served.round({ state, responses })).toEqual(result)
    expect(served.counted.steps).toBe(1)
  })

  it('refuses a state whose round still runs when the round is not a take-over (a 2026-07-28 client presenting it twice at once)', async () => {
    const served = serve()
    const { state, responses } = await atQuestion(served)
    await served.scope.run(() => served.ledger.claim({ stateId: state.id, toolName: 'reserve_table' }))
    const result = (await served.round({ state, responses })) as { isError?: boolean; content: Array<{ text: string }> }
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(/already being answered elsewhere/)
    expect(served.counted).toEqual({ steps: 0, modelCalls: 0 })
  })
})

describe('a round of a plugin tool whose request goes away (the client cancelled it, or its connection dropped)', () => {
  it('halts the tool before the request is given up, and leaves the state free to present again', async () => {
    const atStep = withResolvers<void>()
    let blocked = true
    let haltedInStep = false
    const served = serve(function* () {
      if (!blocked) return
      atStep.resolve()
      try {
        yield* suspend()
      } finally {
        haltedInStep = true
      }
    })
    const { state, responses } = await atQuestion(served)
    const request = new AbortController()
    const round = served.round({ state, responses, signal: request.signal })
    // The round claimed the state and is in its step when the request goes away.
    await served.scope.run(() => atStep.operation)
    request.abort()
    await expect(round).rejects.toThrow()
    expect(haltedInStep).toBe(true)
    // Nobody got an answer: presented again, the state runs its round (not refused as still being answered).
    blocked = false
    const result = (await served.round({ state, responses })) as { structuredContent?: Record<string, unknown> }
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', code: expect.stringMatching(/^TBL-/) })
    expect(served.counted.steps).toBe(2)
  })
})
