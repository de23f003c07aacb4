import { until } from 'effection'
import type { PluginRegistry } from '../plugins'
import { createChatSaver } from './chat-saver'
import { allElicitations, initialChatState, openElicitations, reduceChat, type ChatAction, type ChatState } from './chat-state'
import { createChatStore, type ChatSnapshot } from './chat-store'
import { createChatTransport, STOP_REASON } from './chat-transport'
import { createHandlerTasks } from './handler-tasks'
import type { ChatPersistence } from './persistence'
import { parseComposerText } from './slash-command'

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
 * The browser side of the chat contract, without React: what the user does, in the order of
 * the chat's parts — the store (`chat-store.ts`), its persistence (`chat-saver.ts`), the plugin
 * handlers (`handler-tasks.ts`) and the requests (`chat-transport.ts`). Every change of the state
 * goes through `dispatch`, which saves it and brings the handlers in line; once every open
 * question has its answer the reducer starts a `responses` turn, and this sends it.
 */
export function createChatController({
  registry,
  persistence,
  endpoint = '/api/chat',
  fetch = (...args) => globalThis.fetch(...args),
  saveDelayMs = 200,
}: CreateChatControllerOptions): ChatController {
  const store = createChatStore()
  const saver = createChatSaver({ persistence, delayMs: saveDelayMs, state: () => store.getSnapshot().state })
  const tasks = createHandlerTasks({ registry, store, dispatch, afterReconcile: sendAnswersWhenDue })
  const transport = createChatTransport({
    endpoint,
    fetch,
    store,
    dispatch,
    ended() {
      saver.now()
      tasks.reconcile()
    },
  })
  let stopping: Promise<void> | undefined
  /** Set by a second Stop while a Stop waits for the busy server: the sessions left are not stopped. */
  let stopGivenUp = false

  function dispatch(action: ChatAction) {
    if (!store.dispatch(action)) return
    saver.changed(action)
    tasks.reconcile()
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
    if (!tasks.isOpen || transport.inFlight || stopping) return
    const { state } = store.getSnapshot()
    if (state.turn?.kind !== 'responses') return
    const ids = new Set(state.turn.elicitIds)
    const answered = allElicitations(state).filter((elicitation) => ids.has(elicitation.question.elicitId) && elicitation.status === 'submitted')
    void transport.request({
      messages: state.messages,
      pluginElicitResponses: answered.map(({ question: { sessionId, callId, elicitId }, result }) => ({
        sessionId,
        callId,
        elicitId,
        result: result ?? { action: 'cancel' as const },
      })),
    })
  }

  function waitingSessionIds(state: ChatState): string[] {
    return [...new Set(openElicitations(state).map((elicitation) => elicitation.question.sessionId))]
  }

  async function stopWaitingSessions() {
    const sessionIds = waitingSessionIds(store.getSnapshot().state)
    if (sessionIds.length === 0) return
    const generation = transport.generation
    dispatch({ type: 'local/stop_sessions', sessionIds })
    for (const sessionId of sessionIds) {
      if (generation !== transport.generation || stopGivenUp) return
      dispatch({ type: 'local/abort_start', sessionId })
      await transport.request({ messages: store.getSnapshot().state.messages, pluginAbort: { sessionId, reason: STOP_REASON } })
    }
  }

  const onPageHide = () => saver.now()

  /** The chat as stored (or a fresh one), once: ready from then on, its waiting questions picked up. */
  function restore(stored: ChatState | undefined) {
    saver.restored()
    let state = stored ?? initialChatState
    // A request cut by the reload is gone: keep what streamed, as after Stop.
    if (state.turn) state = reduceChat(state, { type: 'local/interrupted', reason: 'The page was reloaded before the answer finished.' })
    store.publish({ ...store.getSnapshot(), state, ready: true })
    saver.now()
    tasks.reconcile()
  }

  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    attach() {
      if (tasks.isOpen) return
      tasks.open()
      globalThis.addEventListener?.('pagehide', onPageHide)
      if (saver.isRestored) return tasks.reconcile()
      const stored = persistence?.load()
      if (!stored) return restore(undefined)
      // A stored chat is checked by a chunk of its own: restored when it has loaded, unless detached first (then again on attach).
      tasks.run(function* () {
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
      transport.cut()
      tasks.close()
      const snapshot = store.getSnapshot()
      if (Object.keys(snapshot.renders).length > 0) store.publish({ ...snapshot, renders: {} })
      saver.now()
    },
    async send(text) {
      const content = text.trim()
      const { status } = store.getSnapshot().state
      if (!content || !tasks.isOpen || transport.inFlight || stopping || status === 'streaming' || status === 'awaiting_input') return
      const intent = parseComposerText(content)
      if (intent.kind === 'invalid') {
        dispatch({ type: 'local/refused', message: intent.message })
        return
      }
      dispatch({ type: 'local/send', text: content })
      await transport.request({
        messages: store.getSnapshot().state.messages,
        ...(intent.kind === 'command' ? { directToolCall: { name: intent.name, arguments: intent.arguments } } : {}),
      })
    },
    stop() {
      if (stopping) {
        // A Stop the busy server refused waits to be sent again: this Stop gives up the rest.
        if (store.getSnapshot().busy) {
          stopGivenUp = true
          transport.cut()
        }
        return stopping
      }
      stopGivenUp = false
      stopping = (async () => {
        try {
          await transport.abort()
          await stopWaitingSessions()
        } finally {
          stopping = undefined
          sendAnswersWhenDue()
        }
      })()
      return stopping
    },
    async newChat() {
      const { state, ready } = store.getSnapshot()
      const sessionIds = waitingSessionIds(state)
      transport.forget()
      const attached = tasks.isOpen
      tasks.close()
      store.publish({ state: initialChatState, renders: {}, ready })
      persistence?.clear()
      if (attached) tasks.open()
      await transport.abortQuietly(sessionIds, state.messages)
    },
    setAppContext: transport.setAppContext,
  }
}
