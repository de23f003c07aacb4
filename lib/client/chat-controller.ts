import { until } from 'effection'
import type { PluginRegistry } from '../plugins'
import { allElicitations, initialChatState, openElicitations, reduceChat, type ChatAction, type ChatState } from './chat-state'
import { createChatStore, type ChatSnapshot } from './chat-store'
import { createChatTransport, STOP_REASON } from './chat-transport'
import { createHandlerTasks } from './handler-tasks'
import { parseComposerText } from './slash-command'
import { newChatId } from '../protocol/chat-id'
import { holdsAnswer, loadKeptChat, replayChat, type LoadedChat } from './server-chat'
import { createWaitingWatch, type CarriedFollow } from './waiting-watch'

export interface ChatController {
  getSnapshot(): ChatSnapshot
  subscribe(listener: () => void): () => void
  /** Start: show the chat once (the kept one loaded, or a new one), start the handlers of its elicitations. */
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
  endpoint?: string
  fetch?: typeof globalThis.fetch
  /**
   * The chat is kept on the server (docs/conversations.md): with an `id` it is loaded from the
   * chats API and replayed (`replayChat`); without, the first send's turn makes it (`newChat`). Every request
   * names it (`chatId`), so the server stores each turn; nothing is kept in the browser.
   */
  kept?: KeptChatOptions
}

export interface KeptChatOptions {
  /** The chat to open (`/c/<id>`); undefined: a new chat, made by the first send's turn. */
  id?: string
  /** The chats API (default `/api/chats`). */
  endpoint?: string
  /** The chat was created (`created`), or a turn of it ended: what a list of chats shows may have changed. */
  onChange?(change: { id: string; created: boolean }): void
}

/**
 * The browser side of the chat contract, without React: what the user does, in the order of
 * the chat's parts — the store (`chat-store.ts`), the plugin handlers (`handler-tasks.ts`), the
 * requests (`chat-transport.ts`) and the chat kept on the server (`server-chat.ts`). Every change
 * of the state goes through `dispatch`, which brings the handlers in line; once every open
 * question has its answer the reducer starts a `responses` turn, and this sends it.
 */
export function createChatController({
  registry,
  endpoint = '/api/chat',
  fetch = (...args) => globalThis.fetch(...args),
  kept,
}: CreateChatControllerOptions): ChatController {
  /** The kept chat's id: given, or made for the first send, whose turn makes the chat on the server (`newChat`). */
  let chatId = kept?.id
  /** The server has the chat: it was given, or a request making it was taken. */
  let made = chatId !== undefined
  const store = createChatStore()
  const tasks = createHandlerTasks({ registry, store, dispatch, afterReconcile: sendAnswersWhenDue })
  const transport = createChatTransport({
    endpoint,
    fetch,
    store,
    dispatch,
    ended() {
      tasks.reconcile()
      if (chatId !== undefined) kept?.onChange?.({ id: chatId, created: false })
    },
    chat() {
      if (!kept) return undefined
      chatId ??= newChatId()
      return { id: chatId, newChat: !made }
    },
    accepted(id) {
      if (made || id !== chatId) return
      made = true
      kept?.onChange?.({ id, created: true })
    },
    // A kept chat's turn follows the questions it asks on its own response: the watch takes it, not a request of its own.
    ...(kept ? { followed: (carried: CarriedFollow) => watch.offer(chatId!, carried) } : {}),
  })
  // A question shown waiting is followed on the server: if its call ends elsewhere, the card says so (and the list's mark goes);
  // if it is answered on another page, the chat is read again and shown as kept.
  const watch = createWaitingWatch({
    endpoint: kept?.endpoint,
    fetch,
    ended(event) {
      // Later than the watch's own task: what it dispatches may end that task.
      queueMicrotask(() => {
        dispatch({ type: 'local/call_ended', event })
        if (chatId !== undefined) kept?.onChange?.({ id: chatId, created: false })
      })
    },
    answered(event) {
      // Later than the watch's own task, as `ended`.
      queueMicrotask(() => readAgain(event.elicitId))
    },
  })
  const followWaiting = () => watch.reconcile(store.getSnapshot().state, made ? chatId : undefined)
  if (kept) store.subscribe(followWaiting)
  let stopping: Promise<void> | undefined
  /** Set by a second Stop while a Stop waits for the busy server: the sessions left are not stopped. */
  let stopGivenUp = false

  function dispatch(action: ChatAction) {
    if (!store.dispatch(action)) return
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
      pluginElicitResponses: answered.map(({ question: { sessionId, callId, elicitId }, result, answers }) => ({
        sessionId,
        callId,
        elicitId,
        result: result ?? { action: 'cancel' as const },
        // Kept with the chat on the server, so a reopened chat shows the handler's steps too.
        ...(answers.length > 0 ? { renders: answers } : {}),
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

  /** The chat as kept (or a new one), once: ready from then on, its waiting questions picked up. */
  function restore(chat: ChatState = initialChatState) {
    let state = chat
    // A request the page was reloaded in is gone: keep what streamed, as after Stop.
    if (state.turn) state = reduceChat(state, { type: 'local/interrupted', reason: 'The page was reloaded before the answer finished.' })
    store.publish({ ...store.getSnapshot(), state, ready: true })
    tasks.reconcile()
  }

  /** Loads the kept chat and shows it as it was, once; unless detached first (then again on attach). */
  function openKept(id: string) {
    tasks.run(function* () {
      let loaded: LoadedChat
      try {
        loaded = yield* until(loadKeptChat({ id, endpoint: kept?.endpoint, fetch }))
      } catch (error) {
        // Not ready: nothing can be sent to a chat that is not shown (it would go on from an empty conversation).
        const message = error instanceof Error ? error.message : String(error)
        store.publish({ ...store.getSnapshot(), state: { ...initialChatState, status: 'error', error: `This chat could not be loaded: ${message} Reload the page to try again.` } })
        return
      }
      if (loaded.kind === 'not_found') {
        store.publish({ ...store.getSnapshot(), ready: true, notFound: true })
        return
      }
      restore(replayChat(loaded.chat))
    })
  }

  /**
   * The question `elicitId`, shown waiting here, was answered on another page: the chat is read
   * again and shown as kept once it holds what came of the answer (`holdsAnswer`), while this
   * page still waits on that question with nothing of its own in flight. A read that fails or
   * holds less changes nothing: the watch, still following the question, is told again.
   */
  function readAgain(elicitId: string) {
    const id = chatId
    const options = kept
    const stillShown = () => {
      const { state } = store.getSnapshot()
      return state.status === 'awaiting_input' && openElicitations(state).some((elicitation) => elicitation.question.elicitId === elicitId)
    }
    // Answered on this page meanwhile (its own answer, told before the follow was let go): nothing to read.
    if (!options || id === undefined || !stillShown()) return
    tasks.run(function* () {
      let loaded: LoadedChat
      try {
        loaded = yield* until(loadKeptChat({ id, endpoint: options.endpoint, fetch }))
      } catch {
        return
      }
      if (loaded.kind !== 'found' || chatId !== id || transport.inFlight || !stillShown()) return
      const shown = replayChat(loaded.chat)
      if (!holdsAnswer(loaded.chat, shown, elicitId)) return
      store.publish({ ...store.getSnapshot(), state: shown })
      tasks.reconcile()
      options.onChange?.({ id, created: false })
    })
  }

  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    attach() {
      if (tasks.isOpen) return
      tasks.open()
      watch.open()
      if (kept) followWaiting()
      // Shown once (`ready`): a later attach (React's development double mount) only picks the handlers up again.
      if (store.getSnapshot().ready) return tasks.reconcile()
      if (kept && chatId !== undefined) return openKept(chatId)
      restore()
    },
    detach() {
      transport.cut()
      tasks.close()
      watch.close()
      const snapshot = store.getSnapshot()
      if (Object.keys(snapshot.renders).length > 0) store.publish({ ...snapshot, renders: {} })
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
      if (kept) {
        // The chat is kept, its waiting questions too: nothing of it is stopped. The next send makes another.
        transport.forget()
        const attached = tasks.isOpen
        tasks.close()
        chatId = undefined
        made = false
        store.publish({ state: initialChatState, renders: {}, ready })
        if (attached) tasks.open()
        return
      }
      const sessionIds = waitingSessionIds(state)
      transport.forget()
      const attached = tasks.isOpen
      tasks.close()
      store.publish({ state: initialChatState, renders: {}, ready })
      if (attached) tasks.open()
      await transport.abortQuietly(sessionIds, state.messages)
    },
    setAppContext: transport.setAppContext,
  }
}
