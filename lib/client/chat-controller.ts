import { createScope, until, useAbortSignal, type Operation, type Scope, type Task } from 'effection'
import { parseComposerText } from './slash-command'
import { MAX_APP_CONTEXT_CHARS, MAX_APP_CONTEXTS } from '../protocol/app-context-limits'
import type { ChatRequest } from '../protocol/request-schema'
import { createPluginClientContext, executePluginElicitHandler } from '../plugins'
import type { PluginRegistry, RenderedComponent } from '../plugins'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import { RetryAbortedError, retryWhileBusy, type BusyRetry } from './busy-retry'
import { ChatHttpError, postChat } from './chat-request'
import {
  allElicitations,
  initialChatState,
  openElicitations,
  reduceChat,
  type ChatAction,
  type ChatState,
  type ElicitationEntry,
} from './chat-state'
import type { ChatPersistence } from './persistence'
import { readNdjson } from './read-ndjson'

export const STOP_REASON = 'Stopped by the user'

/** The components each elicitation's handler rendered, by `renderKey`, in render order. */
export type RenderMap = Readonly<Record<string, readonly RenderedComponent[]>>

export interface ChatSnapshot {
  state: ChatState
  renders: RenderMap
  /** False until the stored chat has been restored (after mount, in the browser). */
  ready: boolean
  /**
   * The request in flight was refused because the server is busy, and goes again by itself at
   * `retryAt` (see `retryWhileBusy`); Stop gives it up. Not stored: a reload ends the turn.
   */
  busy?: BusyRetry
}

export interface ChatController {
  getSnapshot(): ChatSnapshot
  subscribe(listener: () => void): () => void
  /** Start: restore the stored chat once, start the handlers of its elicitations. */
  attach(): void
  /** Halt every handler and abort the request in flight; `attach` starts again. */
  detach(): void
  send(text: string): Promise<void>
  stop(): Promise<void>
  newChat(): Promise<void>
  /**
   * What an MCP App last told the model (`ui/update-model-context`), by app; `undefined`
   * forgets it. Sent with every later request of this chat (the newest `MAX_APP_CONTEXTS`),
   * kept in memory only: an app that is shown again after a reload reports again.
   */
  setAppContext(source: string, text: string | undefined): void
}

export interface CreateChatControllerOptions {
  registry: PluginRegistry
  persistence?: ChatPersistence
  endpoint?: string
  fetch?: typeof globalThis.fetch
  /** How long streamed text may wait before it is saved; every other change is saved at once. */
  saveDelayMs?: number
}

/**
 * What a handler's renders were answered, for it to replay: its answers so far, then, once it
 * has its result, that result for the render it returned the answer of (see `local/answered`).
 * A handler that failed replays only its answers.
 */
export function recordedAnswers({ answers, result, error }: Pick<ElicitationEntry, 'answers' | 'result' | 'error'>): readonly unknown[] {
  return result && error === undefined ? [...answers, result] : answers
}

/** Where a render of an elicitation attempt is kept: a rejected answer starts a new attempt. */
export function renderKey({ question, attempt }: Pick<ElicitationEntry, 'question' | 'attempt'>): string {
  return `${question.elicitId}#${attempt}`
}

interface HandlerTask {
  task: Task<void>
  done: boolean
  /** The answers to its renders so far, by render index: recorded ones, then the user's. */
  answers: unknown[]
  /** The render the user answered last, while the handler has not moved on from it. */
  lastAnswered?: number
}

interface InFlight {
  abort: AbortController
  done: Promise<void>
}

/**
 * The browser side of the chat contract, without React: holds the state, talks to
 * `/api/chat`, and runs each waiting elicitation's plugin handler as a task in one Effection
 * scope. Once every open elicitation of a turn has its result, they go out in one request.
 * A request the server refuses as busy (429 with `Retry-After`) goes again by itself, shown
 * as `busy` in the snapshot meanwhile (see `retryWhileBusy`); Stop gives it up.
 */
export function createChatController({
  registry,
  persistence,
  endpoint = '/api/chat',
  fetch = (...args) => globalThis.fetch(...args),
  saveDelayMs = 200,
}: CreateChatControllerOptions): ChatController {
  let snapshot: ChatSnapshot = { state: initialChatState, renders: {}, ready: false }
  const listeners = new Set<() => void>()
  const handlers = new Map<string, HandlerTask>()
  /** Plugins whose browser half is on its way, and those that could not be loaded. */
  const loading = new Set<string>()
  const failedLoads = new Set<string>()
  let scope: { scope: Scope; destroy: () => void } | undefined
  let inFlight: InFlight | undefined
  let stopping: Promise<void> | undefined
  /** Set by a second Stop while a Stop waits for the busy server: the sessions left are not stopped. */
  let stopGivenUp = false
  let restored = false
  let reconciling = false
  let reconcileAgain = false
  let saveTimer: ReturnType<typeof setTimeout> | undefined
  /** Bumped by New chat: a request of an earlier chat no longer touches the state. */
  let chatGeneration = 0
  /** By app, oldest first (a Map keeps insertion order; an update moves its app to the end). */
  const appContext = new Map<string, string>()

  function publish(next: ChatSnapshot) {
    snapshot = next
    for (const listener of [...listeners]) listener()
  }

  function dispatch(action: ChatAction) {
    const state = reduceChat(snapshot.state, action)
    if (state === snapshot.state) return
    publish({ ...snapshot, state })
    if (action.type === 'text') saveSoon()
    else saveNow()
    reconcile()
  }

  function saveSoon() {
    if (!persistence || saveTimer !== undefined) return
    saveTimer = setTimeout(saveNow, saveDelayMs)
  }

  function saveNow() {
    if (saveTimer !== undefined) clearTimeout(saveTimer)
    saveTimer = undefined
    if (restored) persistence?.save(snapshot.state)
  }

  /** Start a handler for every elicitation without one; halt those whose elicitation no longer waits. */
  function reconcile() {
    if (!scope) return
    if (reconciling) {
      reconcileAgain = true
      return
    }
    reconciling = true
    try {
      do {
        reconcileAgain = false
        const elicitations = allElicitations(snapshot.state)
        const keys = new Set(elicitations.map(renderKey))
        for (const elicitation of elicitations) {
          const key = renderKey(elicitation)
          if (!handlers.has(key) && pluginArrived(elicitation.question.toolName)) startHandler(elicitation)
          const handler = handlers.get(key)
          if (handler && !handler.done && elicitation.status !== 'waiting') halt(handler)
        }
        for (const [key, handler] of handlers) {
          if (!keys.has(key) && !handler.done) halt(handler)
        }
        const staleRenders = Object.keys(snapshot.renders).filter((key) => !keys.has(key))
        if (staleRenders.length > 0) {
          const renders = { ...snapshot.renders }
          for (const key of staleRenders) delete renders[key]
          publish({ ...snapshot, renders })
        }
      } while (reconcileAgain)
    } finally {
      reconciling = false
    }
    sendAnswersWhenDue()
  }

  /**
   * Whether the browser half of the tool's plugin is here (or there is none, or it failed to
   * load: the handler then says so). If not, it is fetched and the handlers start once it is:
   * a handler must get to its first render at once, since the answered ones shown after a
   * reload are halted right after.
   */
  function pluginArrived(toolName: string): boolean {
    if (registry.get(toolName) || !registry.has(toolName) || failedLoads.has(toolName)) return true
    if (!loading.has(toolName)) {
      loading.add(toolName)
      registry.load(toolName).then(
        () => {
          loading.delete(toolName)
          reconcile()
        },
        () => {
          loading.delete(toolName)
          failedLoads.add(toolName)
          reconcile()
        },
      )
    }
    return false
  }

  function halt(handler: HandlerTask) {
    handler.done = true
    // A task's halt runs only once its future is observed.
    handler.task.halt().then(undefined, () => {})
  }

  function startHandler(elicitation: ElicitationEntry) {
    if (!scope) return
    const key = renderKey(elicitation)
    const recorded = recordedAnswers(elicitation)
    const record: Partial<HandlerTask> & Omit<HandlerTask, 'task'> = { done: false, answers: [...recorded] }
    handlers.set(key, record as HandlerTask)
    record.task = scope.scope.run(() => runHandler(elicitation, recorded, record))
  }

  function* runHandler(elicitation: ElicitationEntry, recorded: readonly unknown[], record: Omit<HandlerTask, 'task'>): Operation<void> {
    const signal = yield* useAbortSignal()
    const ctx = createPluginClientContext({
      request: elicitation.question,
      signal,
      recorded,
      show: (rendered) => showRender(elicitation, recorded, record, rendered),
    })
    let result: ElicitAnswer
    let error: string | undefined
    try {
      result = yield* executePluginElicitHandler({ registry, request: elicitation.question, ctx })
    } catch (failure) {
      // Without a working UI the tool would wait forever: answer "cancel" and say why.
      result = { action: 'cancel' }
      error = failure instanceof Error ? failure.message : String(failure)
    }
    record.done = true
    // A handler that returns its last render's answer (a question's component) has it once: as the result.
    const last = record.lastAnswered
    const answers = last !== undefined && last === record.answers.length - 1 && record.answers[last] === result ? record.answers.slice(0, last) : record.answers
    dispatch({ type: 'local/answered', elicitId: elicitation.question.elicitId, attempt: elicitation.attempt, answers, result, error })
  }

  /**
   * Show a render; keep what the user answered it. The answer is stored when the handler moves
   * on: to its next render (`local/answer`) or to its result (`local/answered`) — one action per
   * click either way.
   */
  function showRender(elicitation: ElicitationEntry, recorded: readonly unknown[], record: Omit<HandlerTask, 'task'>, rendered: RenderedComponent) {
    const key = renderKey(elicitation)
    const list = [...(snapshot.renders[key] ?? [])]
    list[rendered.index] = rendered
    publish({ ...snapshot, renders: { ...snapshot.renders, [key]: list } })
    if (rendered.response && rendered.index >= recorded.length) {
      record.answers[rendered.index] = rendered.response.value
      record.lastAnswered = rendered.index
    } else if (!rendered.response && record.lastAnswered !== undefined) {
      record.lastAnswered = undefined
      dispatch({ type: 'local/answer', elicitId: elicitation.question.elicitId, attempt: elicitation.attempt, answers: [...record.answers] })
    }
  }

  /**
   * Send the answers of a `responses` turn the reducer started (once every open question had its
   * answer) when nothing else is in flight. Deferred to a microtask so that a detach right after
   * attach (React's development double mount) does not cut the request it would start: the turn
   * stays, and goes out on the next attach.
   */
  function sendAnswersWhenDue() {
    queueMicrotask(sendAnswersNow)
  }

  function sendAnswersNow() {
    if (!scope || inFlight || stopping) return
    const { turn } = snapshot.state
    if (turn?.kind !== 'responses') return
    const ids = new Set(turn.elicitIds)
    const answered = allElicitations(snapshot.state).filter((elicitation) => ids.has(elicitation.question.elicitId) && elicitation.status === 'submitted')
    void request({
      messages: snapshot.state.messages,
      pluginElicitResponses: answered.map(({ question: { sessionId, callId, elicitId }, result }) => ({
        sessionId,
        callId,
        elicitId,
        result: result ?? { action: 'cancel' as const },
      })),
    })
  }

  async function request(body: ChatRequest): Promise<void> {
    if (appContext.size > 0) {
      body = { ...body, appContext: [...appContext].slice(-MAX_APP_CONTEXTS).map(([source, text]) => ({ source, text })) }
    }
    const abort = new AbortController()
    const generation = chatGeneration
    const apply = (action: ChatAction) => {
      if (generation === chatGeneration) dispatch(action)
    }
    const done = (async () => {
      let streamed = false
      try {
        const response = await retryWhileBusy(() => postChat({ body, signal: abort.signal, endpoint, fetch }), {
          signal: abort.signal,
          onWait: (busy) => {
            if (generation === chatGeneration && snapshot.busy !== busy) publish({ ...snapshot, busy })
          },
        })
        for await (const event of readNdjson(response.body)) {
          if (abort.signal.aborted) break
          streamed = true
          apply(event)
        }
        if (abort.signal.aborted) apply({ type: 'local/interrupted', reason: `${STOP_REASON}.` })
        else apply({ type: 'local/stream_end' })
      } catch (failure) {
        if (failure instanceof RetryAbortedError) apply({ type: 'local/not_sent', reason: `${STOP_REASON}.` })
        else if (abort.signal.aborted) apply({ type: 'local/interrupted', reason: `${STOP_REASON}.` })
        else if (failure instanceof ChatHttpError) apply({ type: 'local/request_failed', message: failure.message })
        else if (!streamed) apply({ type: 'local/request_failed', message: 'Could not reach the server. Check your connection and try again.' })
        else {
          apply({
            type: 'local/interrupted',
            reason: 'The connection was lost.',
            error: failure instanceof Error && failure.name === 'NdjsonParseError' ? failure.message : 'The connection was lost before the answer finished.',
          })
        }
      }
    })()
    const current: InFlight = { abort, done }
    inFlight = current
    try {
      await done
    } finally {
      if (inFlight === current) inFlight = undefined
      saveNow()
      reconcile()
    }
  }

  async function abortInFlight() {
    const current = inFlight
    if (!current) return
    current.abort.abort()
    await current.done
  }

  async function stopWaitingSessions() {
    const sessionIds = [...new Set(openElicitations(snapshot.state).map((elicitation) => elicitation.question.sessionId))]
    if (sessionIds.length === 0) return
    const generation = chatGeneration
    dispatch({ type: 'local/stop_sessions', sessionIds })
    for (const sessionId of sessionIds) {
      if (generation !== chatGeneration || stopGivenUp) return
      dispatch({ type: 'local/abort_start', sessionId })
      await request({ messages: snapshot.state.messages, pluginAbort: { sessionId, reason: STOP_REASON } })
    }
  }

  /** Tell the server about sessions a discarded chat left waiting; their events go nowhere. */
  async function abortQuietly(sessionIds: string[], messages: ChatState['messages']) {
    let conversation = messages
    for (const sessionId of sessionIds) {
      try {
        const response = await postChat({ body: { messages: conversation, pluginAbort: { sessionId, reason: STOP_REASON } }, endpoint, fetch })
        for await (const event of readNdjson(response.body)) {
          if (event.type === 'conversation_state') conversation = event.messages
        }
      } catch {
        // The session expires on the server anyway.
      }
    }
  }

  function startScope() {
    const [created, destroy] = createScope()
    scope = { scope: created, destroy: () => void destroy().then(undefined, () => {}) }
  }

  function stopScope() {
    scope?.destroy()
    scope = undefined
    handlers.clear()
  }

  const onPageHide = () => saveNow()

  /** The chat as stored (or a fresh one), once: ready from then on, its waiting questions picked up. */
  function restore(stored: ChatState | undefined) {
    restored = true
    let state = stored ?? initialChatState
    // A request cut by the reload is gone: keep what streamed, as after Stop.
    if (state.turn) state = reduceChat(state, { type: 'local/interrupted', reason: 'The page was reloaded before the answer finished.' })
    publish({ ...snapshot, state, ready: true })
    saveNow()
    reconcile()
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    attach() {
      if (scope) return
      startScope()
      globalThis.addEventListener?.('pagehide', onPageHide)
      if (restored) return reconcile()
      const stored = persistence?.load()
      if (!stored) return restore(undefined)
      // A stored chat is checked by a chunk of its own: restored when it has loaded, unless detached first (then again on attach).
      scope!.scope.run(function* () {
        let state: ChatState | undefined
        try {
          state = yield* until(stored)
        } catch {
          // Its chunk could not load (offline): the chat starts fresh, and what is stored stays for the next visit.
        }
        restore(state)
      })
    },
    detach() {
      globalThis.removeEventListener?.('pagehide', onPageHide)
      inFlight?.abort.abort()
      stopScope()
      if (Object.keys(snapshot.renders).length > 0) publish({ ...snapshot, renders: {} })
      saveNow()
    },
    async send(text) {
      const content = text.trim()
      const { status } = snapshot.state
      if (!content || !scope || inFlight || stopping || status === 'streaming' || status === 'awaiting_input') return
      const intent = parseComposerText(content)
      if (intent.kind === 'invalid') {
        dispatch({ type: 'local/refused', message: intent.message })
        return
      }
      dispatch({ type: 'local/send', text: content })
      await request({
        messages: snapshot.state.messages,
        ...(intent.kind === 'command' ? { directToolCall: { name: intent.name, arguments: intent.arguments } } : {}),
      })
    },
    stop() {
      if (stopping) {
        // A Stop the busy server refused waits to be sent again: this Stop gives up the rest.
        if (snapshot.busy) {
          stopGivenUp = true
          inFlight?.abort.abort()
        }
        return stopping
      }
      stopGivenUp = false
      stopping = (async () => {
        try {
          await abortInFlight()
          await stopWaitingSessions()
        } finally {
          stopping = undefined
          sendAnswersWhenDue()
        }
      })()
      return stopping
    },
    async newChat() {
      const sessionIds = [...new Set(openElicitations(snapshot.state).map((elicitation) => elicitation.question.sessionId))]
      const messages = snapshot.state.messages
      chatGeneration++
      inFlight?.abort.abort()
      inFlight = undefined
      const attached = scope !== undefined
      stopScope()
      publish({ state: initialChatState, renders: {}, ready: snapshot.ready })
      appContext.clear()
      persistence?.clear()
      if (attached) startScope()
      await abortQuietly(sessionIds, messages)
    },
    setAppContext(source, text) {
      appContext.delete(source)
      if (text) appContext.set(source.slice(0, 200), text.slice(0, MAX_APP_CONTEXT_CHARS))
    },
  }
}
