import { all, createScope, sleep, suspend, withResolvers, type Operation, type Scope } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools'
import { readElicitId } from '../protocol/elicit-id'
import type { ToolSampleRequest } from '../runtime/tool-client'
import type { LiveSession, LiveSessionEvent } from './live-session'
import type { AnswersOutcome } from './answer-outcome'
import { usePluginSessionManager, type LoadedSession, type PluginSessionManager, type PluginSessionManagerOptions } from './plugin-session-manager'
import { SessionStoreUnavailableError, type SessionStore } from './session-store'
import { createMemorySessionStore, memorySessionKey, type MemorySessionEntry } from './stores/memory-store'
import { createLocalCallEnds } from './call-ends'
import { heardCalls } from './testing/heard-calls'
import { warnFailure } from '../http/failure-log'

const teardowns: string[] = []
let stepRuns = 0
let sampleCalls: ToolSampleRequest[] = []
let onTeardown: ((question: string) => void) | undefined
/** Runs inside askTool's step, before its work. */
let duringStep: (() => Operation<void>) | undefined

/** Asks one question, then does work that must not be redone on a replay: a step and a sample. */
const askTool = createMcpTool('ask')
  .description('Asks one question')
  .parameters(z.object({ question: z.string() }))
  .elicits({ answer: z.object({ text: z.string().min(1) }) })
  .execute(function* ({ question }, ctx) {
    try {
      yield* ctx.log('info', `asking ${question}`)
      const answer = yield* ctx.elicit('answer', { message: question })
      if (answer.action !== 'accept') return answer.action
      const ticket = yield* ctx.step('ticket', function* () {
        if (duringStep) yield* duringStep()
        stepRuns++
        return `T-${stepRuns}`
      })
      const reply = yield* ctx.sample({ prompt: `Say something about ${answer.content.text}` })
      yield* ctx.notify('done', 1)
      return `${answer.content.text}/${ticket}/${reply.text}`
    } finally {
      teardowns.push(question)
      onTeardown?.(question)
    }
  })

/** Asks two questions in a row, reporting progress between them. */
const twoQuestions = createMcpTool('two')
  .description('Asks two questions')
  .parameters(z.object({}))
  .elicits({ first: z.object({ text: z.string() }), second: z.object({ text: z.string() }) })
  .execute(function* (_params, ctx) {
    const first = yield* ctx.elicit('first', { message: 'First?' })
    yield* ctx.notify('between', 0.5)
    const second = yield* ctx.elicit('second', { message: 'Second?' })
    return `${first.action === 'accept' ? first.content.text : first.action}/${second.action === 'accept' ? second.content.text : second.action}`
  })

/** What the tool `gated` waits on, set by each test that runs it. */
let gates: { beforeStep: Operation<void>; afterLog: Operation<void> } | undefined

/** Asks, then waits, does a step, logs its value, and waits again: a result followed by a log, with nothing written between. */
const gatedTool = createMcpTool('gated')
  .description('Does a step after its answer and logs its value')
  .parameters(z.object({}))
  .elicits({ go: z.object({ text: z.string() }) })
  .execute(function* (_params, ctx) {
    yield* ctx.elicit('go', { message: 'Go?' })
    yield* gates!.beforeStep
    const ticket = yield* ctx.step('ticket', function* () {
      stepRuns++
      return `T-${stepRuns}`
    })
    yield* ctx.log('info', `issued ${ticket}`)
    yield* gates!.afterLog
    return ticket
  })

let outsideCalls = 0
let looks = 0

/**
 * Like an external server's tool: looks at its connection (a step that reaches nothing outside)
 * and asks before its outside work, marks the work's start with the step it names as
 * `startedBy`, then asks again while the work runs (as a server's own question).
 */
const outsideTool = {
  ...createMcpTool('outside')
    .description('Asks, starts outside work, asks again')
    .parameters(z.object({}))
    .elicits({ approve: z.object({ text: z.string() }), during: z.object({ text: z.string() }) })
    .execute(function* (_params, ctx) {
      try {
        yield* ctx.step('look', function* () {
          looks++
          return true
        })
        const approval = yield* ctx.elicit('approve', { message: 'May I?' })
        if (approval.action !== 'accept') return 'not allowed'
        yield* ctx.step('call started', function* () {
          outsideCalls++
          return true
        })
        const during = yield* ctx.elicit('during', { message: 'And?' })
        return `${approval.content.text}/${during.action === 'accept' ? during.content.text : during.action}/${outsideCalls}`
      } finally {
        teardowns.push('outside')
        onTeardown?.('outside')
      }
    }),
  liveOnly: { startedBy: 'call started' },
}

const runtime = {
  *sample(request: ToolSampleRequest): Operation<{ text: string }> {
    sampleCalls.push(request)
    return { text: `reply ${sampleCalls.length}` }
  },
}

interface Instance {
  scope: Scope
  destroy: () => Promise<void>
  manager: PluginSessionManager
}
const instances: Instance[] = []

async function startManager(options: Partial<PluginSessionManagerOptions> & { store: SessionStore }): Promise<Instance> {
  const [scope, destroy] = createScope()
  const manager = await new Promise<PluginSessionManager>((resolve) => {
    scope.run(function* () {
      resolve(yield* usePluginSessionManager({ tools: (name) => ({ ask: askTool, two: twoQuestions, outside: outsideTool })[name], runtime, report: warnFailure, ...options }))
      yield* suspend()
    })
  })
  const instance = { scope, destroy, manager }
  instances.push(instance)
  return instance
}

beforeEach(() => {
  teardowns.length = 0
  stepRuns = 0
  sampleCalls = []
  onTeardown = undefined
  duringStep = undefined
  gates = undefined
  outsideCalls = 0
  looks = 0
})
afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.destroy()
})

function* nextQuestion(session: LiveSession, seen: LiveSessionEvent[] = []) {
  while (true) {
    const event = yield* session.nextEvent()
    seen.push(event)
    if (event.type !== 'log' && event.type !== 'notify') return event
  }
}

function* startAsking({ manager }: Instance, question: string, clientId = 'client-a') {
  const session = yield* manager.start({ tool: askTool, params: { question }, callId: `call-${question}`, clientId, parentMessages: [] })
  const first = yield* nextQuestion(session)
  if (first.type !== 'elicit') throw new Error(`expected an elicitation, got ${first.type}`)
  manager.touch(session)
  return { session, request: first.request }
}

function* startOutside({ manager }: Instance) {
  const session = yield* manager.start({ tool: outsideTool, params: {}, callId: 'call-outside', clientId: 'client-a', parentMessages: [] })
  const first = yield* nextQuestion(session)
  if (first.type !== 'elicit') throw new Error(`expected an elicitation, got ${first.type}`)
  manager.touch(session)
  return session
}

/** Give one answer as a request would; what the manager did with it. */
function* give({ manager }: Instance, id: string, elicitId: string, text: string, clientId = 'client-a') {
  const result = { action: 'accept' as const, content: { text } }
  return yield* manager.answer({ clientId, answers: [{ callId: id, elicitId: readElicitId(elicitId), result }], parentMessages: () => [] })
}

/** The tool going on with an accepted answer; throws on any other outcome. */
function acceptedSession(outcome: AnswersOutcome): LiveSession {
  const first = outcome.kind === 'answered' ? outcome.outcomes[0] : outcome
  if (first?.kind !== 'accepted') throw new Error(`expected the answer to be accepted: ${JSON.stringify(first)}`)
  return first.session
}

/** Answer the question the session waits on now (as the store has it), and run the tool to its next question or its end. */
function* answer(instance: Instance, id: string, text: string, clientId = 'client-a') {
  const loaded = yield* instance.manager.load(clientId, id)
  if (loaded.kind !== 'waiting') throw new Error(`expected a waiting session, got ${loaded.kind}`)
  const session = acceptedSession(yield* give(instance, id, loaded.request.elicitId, text, clientId))
  const events: LiveSessionEvent[] = []
  const end = yield* nextQuestion(session, events)
  return { session, end, events }
}

const on = <T>(instance: Instance, operation: () => Operation<T>) => instance.scope.run(operation)

/** The store, with the status of every write that succeeded (creates marked as such), in order. */
function countingUpdates(store: SessionStore): { store: SessionStore; updates: string[] } {
  const updates: string[] = []
  return {
    updates,
    store: {
      ...store,
      *create(record) {
        const created = yield* store.create(record)
        if (created) updates.push(`created ${record.status}`)
        return created
      },
      *update(record, version) {
        const written = yield* store.update(record, version)
        if (written !== undefined) updates.push(record.status)
        return written
      },
    },
  }
}

/** Start the `gated` tool and answer it from memory: it then waits on `beforeStep`, its answer written alone. */
function* answerGated(instance: Instance) {
  const beforeStep = withResolvers<void>()
  const afterLog = withResolvers<void>()
  gates = { beforeStep: beforeStep.operation, afterLog: afterLog.operation }
  const session = yield* instance.manager.start({ tool: gatedTool, params: {}, callId: 'call-gated', clientId: 'client-a', parentMessages: [] })
  const first = yield* nextQuestion(session)
  if (first.type !== 'elicit') throw new Error(`expected an elicitation, got ${first.type}`)
  instance.manager.touch(session)
  const resumed = acceptedSession(yield* give(instance, session.id, first.request.elicitId, 'go'))
  if (resumed !== session) throw new Error('expected the tool in memory to take the answer')
  return { session, beforeStep, afterLog }
}

describe('PluginSessionManager', () => {
  it('keeps a waiting session as data, for its own client only, and resumes the tool it has in memory', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'name?'))
    expect(await on(a, () => a.manager.listActive())).toMatchObject([{ id: 'call-name?', toolName: 'ask', status: 'awaiting_elicit' }])
    expect(await on(a, () => a.manager.load('client-b', session.id))).toEqual({ kind: 'missing' })
    const stored = await on(a, () => store.get('client-a', session.id))
    expect(stored?.record).toMatchObject({ status: 'waiting', pending: { key: 'answer', message: 'name?', seq: 2 }, journal: [] })

    const { session: resumed, end } = await on(a, () => answer(a, session.id, 'Ada'))
    expect(resumed).toBe(session)
    expect(end).toEqual({ type: 'completed', content: 'Ada/T-1/reply 1' })
    expect((await on(a, () => store.get('client-a', session.id)))?.record).toMatchObject({
      status: 'completed',
      ending: { kind: 'completed', content: 'Ada/T-1/reply 1' },
      journal: [
        { seq: 2, kind: 'elicit', key: 'answer', answer: { action: 'accept', content: { text: 'Ada' } } },
        { seq: 3, kind: 'step', name: 'ticket', value: 'T-1' },
        { seq: 4, kind: 'sample', text: 'reply 1' },
      ],
    })
    expect(await on(a, () => a.manager.listActive())).toEqual([])
  })

  it('continues a session on another instance sharing the store, by replaying its journal', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const b = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'colour?'))

    const { session: replayed, end, events } = await on(b, () => answer(b, session.id, 'blue'))
    expect(replayed).not.toBe(session)
    expect(end).toEqual({ type: 'completed', content: 'blue/T-1/reply 1' })
    // The log sent before the question is not sent again; what follows the answer is live.
    expect(events.map((event) => event.type)).toEqual(['notify', 'completed'])
    // Instance a's copy is stale: the store moved on, so its answer would be refused.
    expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({ kind: 'ended', ending: { kind: 'completed' } })
  })

  it('never redoes a recorded step or sample on replay: a session taken over mid-run keeps its ticket', async () => {
    const store = createMemorySessionStore()
    let now = 1_000
    const a = await startManager({ store, now: () => now, leaseMs: 5_000 })
    const { session } = await on(a, () => startAsking(a, 'trip?'))
    // Record the answer, the step and the sample, as a process would before dying mid-run.
    const waiting = (await on(a, () => store.get('client-a', session.id)))!
    const { record } = waiting
    const answered = { seq: record.pending!.seq, kind: 'elicit' as const, key: record.pending!.key, answer: { action: 'accept' as const, content: { text: 'Rome' } } }
    const version = await on(a, () =>
      store.update(
        {
          ...record,
          status: 'running',
          pending: undefined,
          journal: [...record.journal, answered, { seq: 3, kind: 'step', name: 'ticket', value: 'T-FIRST' }, { seq: 4, kind: 'sample', text: 'first reply' }],
          expiresAt: now + 5_000,
        },
        waiting.version,
      ),
    )
    expect(version).toBeDefined()

    const b = await startManager({ store, now: () => now, leaseMs: 5_000 })
    expect(await on(b, () => b.manager.load('client-a', session.id))).toMatchObject({ kind: 'running', abandoned: false })
    now += 5_000
    const abandoned = await on(b, () => b.manager.load('client-a', session.id))
    expect(abandoned).toMatchObject({ kind: 'running', abandoned: true })
    // Nothing runs it any more: it is not listed as open, though a request naming it takes it over.
    expect(await on(b, () => b.manager.listActive())).toEqual([])
    const takenOver = await on(b, () => b.manager.takeOver({ loaded: abandoned as Extract<LoadedSession, { kind: 'running' }>, parentMessages: [] }))
    if (takenOver?.kind !== 'taken') throw new Error(`expected b to take the session over: ${JSON.stringify(takenOver)}`)
    expect(await on(b, () => nextQuestion(takenOver.session))).toEqual({ type: 'completed', content: 'Rome/T-FIRST/first reply' })
    expect(stepRuns).toBe(0)
    expect(sampleCalls).toEqual([])
  })

  it('renews the lease of a tool running here every third of it: a slow step is not taken over from a live process', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    // On a clock the test moves: the lease passes when the test says so, never by a stall of the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const a = await startManager({ store: counted.store, leaseMs: 3_000 })
      const b = await startManager({ store: counted.store, leaseMs: 3_000, tools: (name) => (name === 'gated' ? gatedTool : undefined) })
      const { session, beforeStep, afterLog } = await on(a, () => answerGated(a))
      const first = (await on(a, () => counted.store.get('client-a', session.id)))!.record
      expect(first.status).toBe('running')
      counted.updates.length = 0

      // The tool works on past its first lease: renewed at each third of it, it is still a live process's.
      await vi.advanceTimersByTimeAsync(3_000)
      expect(counted.updates).toEqual(['running', 'running', 'running'])
      const loaded = await on(b, () => b.manager.load('client-a', session.id))
      expect(loaded).toMatchObject({ kind: 'running', abandoned: false })
      expect((loaded as Extract<LoadedSession, { kind: 'running' }>).stored.record.expiresAt).toBeGreaterThan(first.expiresAt)

      // Its own result is the one; a tool that ended is renewed no more.
      beforeStep.resolve()
      afterLog.resolve()
      expect(await on(a, () => nextQuestion(session))).toEqual({ type: 'completed', content: 'T-1' })
      counted.updates.length = 0
      await vi.advanceTimersByTimeAsync(3_000)
      expect(counted.updates).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('renews no lease of a waiting tool: its record keeps its idle time-out', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const a = await startManager({ store: counted.store, leaseMs: 3_000 })
      const { session } = await on(a, () => startAsking(a, 'idle?'))
      const waiting = (await on(a, () => counted.store.get('client-a', session.id)))!.record
      counted.updates.length = 0
      await vi.advanceTimersByTimeAsync(3_000)
      expect(counted.updates).toEqual([])
      expect((await on(a, () => counted.store.get('client-a', session.id)))!.record).toEqual(waiting)
    } finally {
      vi.useRealTimers()
    }
  })

  it('drops a waiting tool from memory after the hot time, and the next answer replays it', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store, hotMs: 20 })
    const dropped = withResolvers<string>()
    onTeardown = dropped.resolve
    const { session } = await on(a, () => startAsking(a, 'cold?'))
    expect(await on(a, () => dropped.operation)).toBe('cold?')
    expect((await on(a, () => store.get('client-a', session.id)))?.record.status).toBe('waiting')

    onTeardown = undefined
    const { session: replayed, end } = await on(a, () => answer(a, session.id, 'yes'))
    expect(replayed).not.toBe(session)
    expect(end).toEqual({ type: 'completed', content: 'yes/T-1/reply 1' })
  })

  it('checks every answer of a request before it records any: one naming another question records none', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const p = await on(a, () => startAsking(a, 'p?'))
    const q = await on(a, () => startAsking(a, 'q?'))
    const result = { action: 'accept' as const, content: { text: 'x' } }
    const answers = [
      { callId: p.session.id, elicitId: readElicitId(p.request.elicitId), result },
      { callId: q.session.id, elicitId: readElicitId(p.request.elicitId), result },
    ]
    expect(await on(a, () => a.manager.answer({ clientId: 'client-a', answers, parentMessages: () => [] }))).toEqual({
      kind: 'refused',
      code: 'elicit_mismatch',
      message: expect.stringContaining(`not the one tool call ${q.session.id} waits for`),
    })
    for (const { session } of [p, q]) {
      expect((await on(a, () => store.get('client-a', session.id)))?.record).toMatchObject({ status: 'waiting', journal: [] })
      expect(session.waiting).toBe(true)
    }
  })

  it('rejects an answer that does not fit its question, with why: nothing is recorded and the session still waits', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const { session, request } = await on(a, () => startAsking(a, 'empty?'))
    const outcome = await on(a, () => give(a, session.id, request.elicitId, ''))
    expect(outcome).toMatchObject({
      kind: 'answered',
      outcomes: [{ kind: 'rejected', callId: session.id, question: { elicitId: request.elicitId }, issues: [expect.objectContaining({ path: 'text' })] }],
    })
    expect((await on(a, () => store.get('client-a', session.id)))?.record).toMatchObject({ status: 'waiting', journal: [] })
    expect(acceptedSession(await on(a, () => give(a, session.id, request.elicitId, 'now fine')))).toBe(session)
  })

  it('reports an answer to a session that is gone or was stopped as lost, with the code its client hears', async () => {
    const a = await startManager({ store: createMemorySessionStore() })
    const { session, request } = await on(a, () => startAsking(a, 'stopped?'))
    expect(await on(a, () => give(a, 'call-nobody', 'ask/answer/call-nobody/2', 'x'))).toEqual({
      kind: 'answered',
      outcomes: [{ kind: 'lost', callId: 'call-nobody', error: 'SESSION_NOT_FOUND', message: expect.any(String) }],
    })
    await on(a, () => a.manager.abort('client-a', session.id, 'Stopped by the user.'))
    expect(await on(a, () => give(a, session.id, request.elicitId, 'x'))).toEqual({
      kind: 'answered',
      outcomes: [{ kind: 'lost', callId: session.id, error: 'SESSION_ABORTED', message: 'Stopped by the user.' }],
    })
  })

  it('lets exactly one of two deliveries of the same answer record it', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const b = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'once?'))
    const elicitId = session.waitingOn!.request.elicitId
    // a answers from the tool in its memory, b from the store: one compare-and-set wins.
    const results = await Promise.all([on(a, () => give(a, session.id, elicitId, 'x')), on(b, () => give(b, session.id, elicitId, 'x'))])
    expect(results.filter((result) => result.kind === 'answered')).toEqual([{ kind: 'answered', outcomes: [expect.objectContaining({ kind: 'accepted' })] }])
    expect(results.filter((result) => result.kind === 'refused')).toEqual([expect.objectContaining({ kind: 'refused', code: 'elicit_already_answered' })])
  })

  it('writes a new session once, with its first question, when its tool asks at once', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    const a = await startManager({ store: counted.store })
    const session = await on(a, () => a.manager.start({ tool: twoQuestions, params: {}, callId: 'call-new', clientId: 'client-a', parentMessages: [] }))
    expect(await on(a, () => nextQuestion(session))).toMatchObject({ type: 'elicit', request: { key: 'first' } })
    expect(counted.updates).toEqual(['created waiting'])
    expect((await on(a, () => counted.store.get('client-a', 'call-new')))?.record).toMatchObject({ status: 'waiting', pending: { key: 'first' }, journal: [] })
    // The same call id again is refused, and the first session is untouched.
    await expect(on(a, () => a.manager.start({ tool: twoQuestions, params: {}, callId: 'call-new', clientId: 'client-a', parentMessages: [] }))).rejects.toThrow(
      'already exists',
    )
    expect((await on(a, () => counted.store.get('client-a', 'call-new')))?.version).toBe(1)
    // The refused start did not take the first one's place in memory: it still answers from there.
    expect(acceptedSession(await on(a, () => give(a, 'call-new', session.waitingOn!.request.elicitId, 'one')))).toBe(session)
  })

  it('ends a new session whose start is stopped before it is written: no tool runs on, no record waits', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const starting = a.scope.run(() => a.manager.start({ tool: askTool, params: { question: 'stopped?' }, callId: 'call-stopped', clientId: 'client-a', parentMessages: [] }))
    await starting.halt()
    expect(teardowns).toEqual(['stopped?'])
    const stored = await on(a, () => store.get('client-a', 'call-stopped'))
    // Written by then or not, nothing waits: the record is aborted, or there is none.
    if (stored) expect(stored.record).toMatchObject({ status: 'aborted' })
    expect(await on(a, () => a.manager.listActive())).toEqual([])
  })

  it('writes a new session before a step its tool does first does its work', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    const stepsFirst = createMcpTool('steps-first')
      .description('Does a step before anything else')
      .parameters(z.object({}))
      .elicits({})
      .execute(function* (_params, ctx) {
        return yield* ctx.step('look', function* () {
          return (yield* counted.store.get('client-a', 'call-step'))?.record.status ?? 'not in the store'
        })
      })
    const a = await startManager({ store: counted.store })
    const session = await on(a, () => a.manager.start({ tool: stepsFirst, params: {}, callId: 'call-step', clientId: 'client-a', parentMessages: [] }))
    expect(await on(a, () => nextQuestion(session))).toEqual({ type: 'completed', content: 'running' })
    // Created before the step's work; the step's value is written with the result.
    expect(counted.updates).toEqual(['created running', 'completed'])
  })

  it('writes the answer to a tool waiting in memory together with its next question: one compare-and-set', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    const a = await startManager({ store: counted.store })
    const session = await on(a, () => a.manager.start({ tool: twoQuestions, params: {}, callId: 'call-two', clientId: 'client-a', parentMessages: [] }))
    const first = await on(a, () => nextQuestion(session))
    if (first.type !== 'elicit') throw new Error(first.type)
    a.manager.touch(session)
    counted.updates.length = 0

    const resumed = acceptedSession(await on(a, () => give(a, session.id, first.request.elicitId, 'one')))
    expect(resumed).toBe(session)
    const events: LiveSessionEvent[] = []
    expect(await on(a, () => nextQuestion(resumed, events))).toMatchObject({ type: 'elicit', request: { key: 'second' } })
    expect(events.map((event) => event.type)).toEqual(['notify', 'elicit'])
    // One write took the session and recorded the answer with the question that followed it.
    expect(counted.updates).toEqual(['waiting'])
    expect((await on(a, () => counted.store.get('client-a', session.id)))?.record).toMatchObject({
      status: 'waiting',
      pending: { key: 'second' },
      journal: [{ kind: 'elicit', key: 'first', answer: { action: 'accept', content: { text: 'one' } } }],
    })
  })

  it('writes the answer to a tool waiting in memory before a step after it does its work', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    const a = await startManager({ store: counted.store })
    const { session, request } = await on(a, () => startAsking(a, 'step?'))
    const seenByStep: unknown[] = []
    duringStep = function* () {
      seenByStep.push((yield* counted.store.get('client-a', session.id))?.record)
    }
    counted.updates.length = 0
    const resumed = acceptedSession(await on(a, () => give(a, session.id, request.elicitId, 'now')))
    expect(resumed).toBe(session)
    expect(await on(a, () => nextQuestion(resumed))).toEqual({ type: 'completed', content: 'now/T-1/reply 1' })
    expect(seenByStep).toEqual([
      expect.objectContaining({ status: 'running', journal: [expect.objectContaining({ kind: 'elicit', answer: { action: 'accept', content: { text: 'now' } } })] }),
    ])
    // The answer before the step's work; the step's value before the model call; the sample's text with the result.
    expect(counted.updates).toEqual(['running', 'running', 'completed'])
  })

  it('writes a step’s value before a log that may tell of it is handed over, and with what follows when nothing comes between', async () => {
    const counted = countingUpdates(createMemorySessionStore())
    const a = await startManager({ store: counted.store })
    const { session, beforeStep, afterLog } = await on(a, () => answerGated(a))
    counted.updates.length = 0
    beforeStep.resolve()
    expect(await on(a, () => session.nextEvent())).toMatchObject({ type: 'log', message: 'issued T-1' })
    // By the time the log is handed over, the ticket it names is durable.
    expect((await on(a, () => counted.store.get('client-a', session.id)))?.record.journal).toContainEqual(
      expect.objectContaining({ kind: 'step', name: 'ticket', value: 'T-1' }),
    )
    expect(counted.updates).toEqual(['running'])
    afterLog.resolve()
    expect(await on(a, () => session.nextEvent())).toEqual({ type: 'completed', content: 'T-1' })
    expect(counted.updates).toEqual(['running', 'completed'])
  })

  it('stops a tool whose step value the store refuses: its log is never handed over, and the driver hears why', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const { session, beforeStep } = await on(a, () => answerGated(a))
    // Another process writes the session meanwhile: this one's next compare-and-set fails.
    const { record, version } = (await on(a, () => store.get('client-a', session.id)))!
    expect(record.journal.map((entry) => entry.kind)).toEqual(['elicit'])
    expect(await on(a, () => store.update({ ...record }, version))).toBe(version + 1)
    beforeStep.resolve()
    const events: LiveSessionEvent[] = []
    expect(await on(a, () => nextQuestion(session, events))).toMatchObject({ type: 'aborted', reason: expect.stringContaining('elsewhere') })
    expect(events.map((event) => event.type)).toEqual(['aborted'])
    expect((await on(a, () => store.get('client-a', record.id)))?.record.journal.map((entry) => entry.kind)).toEqual(['elicit'])
  })

  it('reports a tool whose step value cannot be written while the store is down as failed, and hands over none of its logs', async () => {
    const memory = createMemorySessionStore()
    let down = false
    const store: SessionStore = {
      ...memory,
      *update(record, version) {
        if (down) throw new SessionStoreUnavailableError('The session store is unavailable: connection refused')
        return yield* memory.update(record, version)
      },
    }
    const a = await startManager({ store })
    const { session, beforeStep } = await on(a, () => answerGated(a))
    down = true
    beforeStep.resolve()
    const events: LiveSessionEvent[] = []
    const end = await on(a, () => nextQuestion(session, events))
    expect(end).toMatchObject({ type: 'failed' })
    expect((end as Extract<LiveSessionEvent, { type: 'failed' }>).error.message).toBe(
      'The gated session could not be recorded: The session store is unavailable: connection refused',
    )
    expect(events.map((event) => event.type)).toEqual(['failed'])
  })

  it('reports a new session whose creation got no answer as the store being unavailable, not as taken, and does not write it again', async () => {
    // The store applies the write, but its answer is lost (a reply past the client's deadline).
    const memory = createMemorySessionStore()
    let creates = 0
    const store: SessionStore = {
      ...memory,
      *create(record, limits) {
        creates++
        yield* memory.create(record, limits)
        throw new SessionStoreUnavailableError('The session store is unavailable: no reply within 500 ms')
      },
    }
    const a = await startManager({ store })
    await expect(on(a, () => a.manager.start({ tool: askTool, params: { question: 'lost?' }, callId: 'call-lost', clientId: 'client-a', parentMessages: [] }))).rejects.toThrow(
      'The session store is unavailable: no reply within 500 ms',
    )
    // Tried once: a second try would have been told that the first had taken the session.
    expect(creates).toBe(1)
  })

  it('writes a result by the next turn of the event loop when no request drives the tool', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const later = withResolvers<void>()
    // The tool asks (the request that drives it stops there) while a branch goes on working.
    const askAndWork = createMcpTool('ask-and-work')
      .description('Asks while a branch does a step')
      .parameters(z.object({}))
      .elicits({ go: z.object({ text: z.string() }) })
      .execute(function* (_params, ctx) {
        const [answer, ticket] = yield* all([
          ctx.elicit('go', { message: 'Go?' }),
          ctx.branch(function* (branch) {
            yield* later.operation
            const value = yield* branch.step('ticket', function* () {
              stepRuns++
              return `T-${stepRuns}`
            })
            yield* suspend()
            return value
          }),
        ])
        return `${answer.action}/${ticket}`
      })
    const session = await on(a, () => a.manager.start({ tool: askAndWork, params: {}, callId: 'call-branches', clientId: 'client-a', parentMessages: [] }))
    const first = await on(a, () => nextQuestion(session))
    expect(first.type === 'failed' ? first.error.message : first.type).toBe('elicit')
    later.resolve()
    // Nobody reads the tool's events now, and the branch never writes again by itself.
    await expect
      .poll(async () => (await on(a, () => store.get('client-a', 'call-branches')))?.record.journal.map((entry) => entry.kind))
      .toEqual(['step'])
    expect(stepRuns).toBe(1)
  })

  it('drops what a tool in memory did with an answer another instance recorded first: refused, nothing recorded twice', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const b = await startManager({ store })
    const { session, request } = await on(a, () => startAsking(a, 'race?'))
    // a holds the tool waiting, so it answers from memory without reading the store, where b has recorded its delivery first.
    const { end } = await on(b, () => answer(b, session.id, 'from b'))
    expect(end).toEqual({ type: 'completed', content: 'from b/T-1/reply 1' })

    expect(await on(a, () => give(a, session.id, request.elicitId, 'from a'))).toEqual({
      kind: 'refused',
      code: 'elicit_already_answered',
      message: expect.stringContaining('at the same moment'),
    })
    // a's tool ran on in memory to its step, whose write was refused: the step's work was not done.
    expect(stepRuns).toBe(1)
    expect(await on(a, () => session.nextEvent())).toMatchObject({ type: 'aborted' })
    expect((await on(a, () => store.get('client-a', session.id)))?.record).toMatchObject({
      status: 'completed',
      ending: { kind: 'completed', content: 'from b/T-1/reply 1' },
      journal: [expect.objectContaining({ kind: 'elicit', answer: { action: 'accept', content: { text: 'from b' } } }), expect.anything(), expect.anything()],
    })
  })

  it('aborts a session: the tool in memory is halted (its finally runs), and the reason is kept', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'abort me'))
    expect(await on(a, () => a.manager.abort('client-b', session.id))).toBe(false)
    expect(await on(a, () => a.manager.abort('client-a', session.id, 'Stopped by the user.'))).toBe(true)
    expect(teardowns).toEqual(['abort me'])
    expect(await on(a, () => session.nextEvent())).toEqual({ type: 'aborted', reason: 'Stopped by the user.' })
    expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({
      kind: 'ended',
      ending: { kind: 'aborted', reason: 'Stopped by the user.' },
    })
    expect(await on(a, () => a.manager.listActive())).toEqual([])
  })

  it('announces each stop it writes, to the listeners of that client on every instance; a stop that finds nothing to stop announces nothing', async () => {
    const store = createMemorySessionStore()
    const ends = createLocalCallEnds()
    const a = await startManager({ store, ends })
    const b = await startManager({ store, ends })
    // A listener as a page's watch holds one, for as long as its scope lasts.
    const listener = heardCalls(ends, 'client-a')
    try {
      const heard = async () => ({ done: false, value: await listener.next() })
      const { session } = await on(a, () => startAsking(a, 'stop me'))

      expect(await on(b, () => b.manager.abort('client-a', session.id, 'Stopped by the user.'))).toBe(true)
      expect(await heard()).toEqual({ done: false, value: session.id })
      // Stopped already, or another client's: nothing is written, nothing announced; the next word heard is the mark.
      expect(await on(a, () => a.manager.abort('client-a', session.id, 'Again.'))).toBe(false)
      expect(await on(a, () => a.manager.abort('client-b', session.id, 'Not yours.'))).toBe(false)
      await on(a, () => ends.announce('client-a', 'the-mark'))
      expect(await heard()).toEqual({ done: false, value: 'the-mark' })
    } finally {
      listener.stop()
    }
  })

  it('lists the calls waiting on every instance sharing the store, hot where held, and ends one for an operator: its answer then hears why', async () => {
    const store = createMemorySessionStore()
    let now = 1_000
    const a = await startManager({ store, now: () => now, instance: 'a', hotMs: 60_000, idleTimeoutMs: 600_000 })
    const b = await startManager({ store, now: () => now, instance: 'b', hotMs: 60_000, idleTimeoutMs: 600_000 })
    const { session, request } = await on(a, () => startAsking(a, 'where?'))
    const listed = { clientId: 'client-a', callId: session.id, toolName: 'ask', key: 'answer', since: 1_000, expiresAt: 601_000, instance: 'a', hot: true }
    // a holds it in memory; b reads the record a wrote, and knows a keeps it for the hot time.
    expect(await on(a, () => a.manager.listWaiting())).toEqual([listed])
    expect(await on(b, () => b.manager.listWaiting())).toEqual([listed])
    now += 60_001
    expect(await on(b, () => b.manager.listWaiting())).toEqual([{ ...listed, hot: false }])

    // Ended from b: gone from every list; a second end finds nothing waiting.
    expect(await on(b, () => b.manager.abort('client-a', session.id, 'An operator ended this question.', { waitingOnly: true }))).toBe(true)
    expect(await on(a, () => a.manager.listWaiting())).toEqual([])
    expect(await on(b, () => b.manager.abort('client-a', session.id, 'Again.', { waitingOnly: true }))).toBe(false)
    // The answer reaches a, which still holds the tool: it hears the operator's reason, nothing is recorded.
    const outcome = await on(a, () => give(a, session.id, request.elicitId, 'Rome'))
    expect(outcome).toEqual({
      kind: 'answered',
      outcomes: [{ kind: 'lost', callId: session.id, error: 'SESSION_ABORTED', message: 'An operator ended this question.' }],
    })
    expect(stepRuns).toBe(0)
  })

  it('ends a waiting session after the idle time-out, wherever it is asked about', async () => {
    const store = createMemorySessionStore()
    let now = 1_000
    const a = await startManager({ store, now: () => now, idleTimeoutMs: 60_000 })
    const { session } = await on(a, () => startAsking(a, 'late?'))
    now += 60_000
    expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({
      kind: 'ended',
      ending: { kind: 'aborted', reason: expect.stringContaining('expired after 60 s') },
    })
    expect(await on(a, () => a.manager.listActive())).toEqual([])
  })

  it('holds one timer for any number of waiting sessions', async () => {
    const a = await startManager({ store: createMemorySessionStore() })
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    await on(a, () => startAsking(a, 'warm-up'))
    const before = timers()
    await on(a, function* () {
      for (let index = 0; index < 500; index++) yield* startAsking(a, `q${index}`)
    })
    expect((await on(a, () => a.manager.listActive())).length).toBe(501)
    // Not one more: timers of the test runner's own may come and go meanwhile.
    expect(timers()).toBeLessThanOrEqual(before)
  })

  it('forgets old records in batches, not with one sweep of the store per record as each comes due', async () => {
    const entries = new Map<string, MemorySessionEntry>()
    const memory = createMemorySessionStore(entries)
    let sweeps = 0
    let written = false
    let forgotten = false
    const store: SessionStore = {
      ...memory,
      *sweep(at) {
        sweeps++
        const next = yield* memory.sweep(at)
        if (written && entries.size === 0) forgotten = true
        return next
      },
    }
    // On a clock the test moves, so that the records come due 5 ms apart however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      // Each record is kept 100 ms after its session expires (20 ms idle); ten of them come due 5 ms apart.
      const a = await startManager({ store, idleTimeoutMs: 20, keepMs: 100 })
      for (let index = 0; index < 10; index++) {
        await on(a, () => startAsking(a, `q${index}`))
        await vi.advanceTimersByTimeAsync(5)
      }
      written = true
      const before = sweeps
      for (let elapsed = 0; !forgotten; elapsed += 10) {
        if (elapsed > 60_000) throw new Error('the records were not forgotten within a minute of the test’s clock')
        await vi.advanceTimersByTimeAsync(10)
      }
      // One sweep forgets what is due, the next what came due in the 100 ms after it.
      expect(sweeps - before).toBeLessThanOrEqual(3)
      await instances.splice(instances.indexOf(a), 1)[0]!.destroy()
    } finally {
      vi.useRealTimers()
    }
  })

  it('halts the tools in memory when its scope ends; their records stay for the next process', async () => {
    const store = createMemorySessionStore()
    const a = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'one'))
    await on(a, () => startAsking(a, 'two'))
    await instances.splice(0)[0]!.destroy()
    expect(teardowns.sort()).toEqual(['one', 'two'])

    const b = await startManager({ store })
    expect(await on(b, () => answer(b, session.id, 'after restart'))).toMatchObject({
      end: { type: 'completed', content: 'after restart/T-1/reply 1' },
    })
  })

  it('refuses a second session for the same tool call of a client', async () => {
    const a = await startManager({ store: createMemorySessionStore() })
    await on(a, () => startAsking(a, 'dup'))
    await expect(on(a, () => startAsking(a, 'dup'))).rejects.toThrow('already exists')
  })

  it('reports a stored record it cannot read as broken, never as a crash', async () => {
    const entries = new Map<string, MemorySessionEntry>()
    const store = createMemorySessionStore(entries)
    const a = await startManager({ store })
    const { session } = await on(a, () => startAsking(a, 'corrupt?'))
    const entry = entries.get(memorySessionKey('client-a', session.id))!
    entries.set(memorySessionKey('client-a', session.id), { ...entry, text: '{"format":1,"id":' })
    expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({ kind: 'broken', message: expect.stringContaining('not valid JSON') })
    entries.set(memorySessionKey('client-a', session.id), { ...entry, text: entry.text.replace('"format":1', '"format":99') })
    expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({ kind: 'broken', message: expect.stringContaining('format 99') })
  })
  describe('a live-only tool (an external call)', () => {
    it('is data until its outside work starts (a step before it does not pin it): its first question survives a restart, and the answer runs the work once', async () => {
      const store = createMemorySessionStore()
      const a = await startManager({ store })
      const session = await on(a, () => startOutside(a))
      await instances.splice(0)[0]!.destroy()
      expect(teardowns).toEqual(['outside'])

      const b = await startManager({ store })
      expect(await on(b, () => b.manager.load('client-a', session.id))).toMatchObject({ kind: 'waiting', request: { key: 'approve' } })
      const { end } = await on(b, () => answer(b, session.id, 'yes'))
      expect(end).toMatchObject({ type: 'elicit', request: { key: 'during' } })
      expect(outsideCalls).toBe(1)
      // The look before the question was taken from the journal, not taken again.
      expect(looks).toBe(1)
    })

    it('is lost, never replayed, anywhere but the process doing its outside work', async () => {
      const store = createMemorySessionStore()
      const a = await startManager({ store })
      const session = await on(a, () => startOutside(a))
      const { end } = await on(a, () => answer(a, session.id, 'yes'))
      expect(end).toMatchObject({ type: 'elicit', request: { key: 'during' } })
      a.manager.touch(session)

      const b = await startManager({ store })
      expect(await on(b, () => b.manager.load('client-a', session.id))).toMatchObject({ kind: 'broken', message: expect.stringContaining('external call outside was lost') })
      expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({ kind: 'waiting', request: { key: 'during' } })
      const { end: done } = await on(a, () => answer(a, session.id, 'done'))
      expect(done).toEqual({ type: 'completed', content: 'yes/done/1' })
      expect(outsideCalls).toBe(1)
    })

    it('is dropped from memory like any tool while it waits before its work, and kept once the work started', async () => {
      const store = createMemorySessionStore()
      const a = await startManager({ store, hotMs: 20 })
      const dropped = withResolvers<string>()
      onTeardown = dropped.resolve
      const session = await on(a, () => startOutside(a))
      expect(await on(a, () => dropped.operation)).toBe('outside')
      onTeardown = undefined

      const { session: replayed, end } = await on(a, () => answer(a, session.id, 'yes'))
      expect(replayed).not.toBe(session)
      expect(end).toMatchObject({ type: 'elicit', request: { key: 'during' } })
      a.manager.touch(replayed)
      // Well past the hot time, and still here to be answered.
      await on(a, () => sleep(100))
      expect(teardowns).toEqual(['outside'])
      expect((await on(a, () => answer(a, session.id, 'later'))).end).toEqual({ type: 'completed', content: 'yes/later/1' })
    })

    it('is ended at its idle time-out once its work started: the tool in memory is halted, which cancels the work', async () => {
      // On a clock the test moves: the answer comes before the 50 ms idle time-out however slow the machine.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
      try {
        const store = createMemorySessionStore()
        const a = await startManager({ store, idleTimeoutMs: 50, hotMs: 10 })
        let halted: string | undefined
        const session = await on(a, () => startOutside(a))
        const { end } = await on(a, () => answer(a, session.id, 'yes'))
        expect(end).toMatchObject({ type: 'elicit', request: { key: 'during' } })
        onTeardown = (name) => (halted = name)
        a.manager.touch(session)
        await vi.advanceTimersByTimeAsync(49)
        expect(halted).toBeUndefined()
        await vi.advanceTimersByTimeAsync(1)
        expect(halted).toBe('outside')
        expect(await on(a, () => session.nextEvent())).toEqual({ type: 'aborted', reason: expect.stringContaining('expired after 0 s') })
        expect(await on(a, () => a.manager.load('client-a', session.id))).toMatchObject({ kind: 'ended', ending: { kind: 'aborted' } })
        await instances.splice(instances.indexOf(a), 1)[0]!.destroy()
      } finally {
        vi.useRealTimers()
      }
    })
  })
})
