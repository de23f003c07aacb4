import { MAX_APP_CONTEXT_CHARS, MAX_APP_CONTEXTS } from '../protocol/app-context-limits'
import type { Message } from '../protocol/messages'
import type { ChatRequest } from '../protocol/request-schema'
import { RetryAbortedError, retryWhileBusy, type BusyRetry } from './busy-retry'
import { ChatHttpError, postChat } from './chat-request'
import type { ChatAction } from './chat-state'
import type { ChatStore } from './chat-store'
import { readNdjson } from './read-ndjson'
import type { ChatEvent } from '../protocol/events'
import type { TurnEndLine, WaitingCallNews } from '../protocol/ended-call'
import type { CarriedFollow } from './waiting-watch'

export const STOP_REASON = 'Stopped by the user'

/**
 * The chat's requests to `/api/chat`. At most one is in flight; its events reach the state in
 * order, and only while the chat that sent it is current (New chat forgets the requests before
 * it); each ends the turn it started — its stream's end, an interruption or a failure, always one
 * of them. A request the server refuses as busy (429 with `Retry-After`) goes again by itself,
 * shown as `busy` in the snapshot meanwhile (see `retryWhileBusy`); aborting gives it up.
 */
export interface ChatTransport {
  /** Send one request with the app contexts; resolves once its end is in the state. */
  request(body: ChatRequest): Promise<void>
  readonly inFlight: boolean
  /** Counts New chats: a loop of requests stops when it changes. */
  readonly generation: number
  /** Abort the request in flight and wait until its end is in the state. */
  abort(): Promise<void>
  /** Abort the request in flight without waiting (the chat detaches, a second Stop). */
  cut(): void
  /** New chat: the request in flight and its events no longer reach the state; the app contexts are forgotten. */
  forget(): void
  /** Tell the server about sessions a discarded chat left waiting; their events go nowhere. */
  abortQuietly(sessionIds: string[], messages: Message[]): Promise<void>
  /** What an MCP App last told the model, by app; `undefined` forgets it (see `ChatController.setAppContext`). */
  setAppContext(source: string, text: string | undefined): void
}

interface InFlight {
  abort: AbortController
  done: Promise<void>
}

export function createChatTransport({
  endpoint,
  fetch,
  store,
  dispatch,
  ended,
  chat = () => undefined,
  accepted = () => {},
  followed,
}: {
  endpoint: string
  fetch: typeof globalThis.fetch
  store: ChatStore
  /** Apply an event or the request's end to the chat. */
  dispatch: (action: ChatAction) => void
  /** Called when a request is over (its end applied, nothing in flight). */
  ended: () => void
  /**
   * The chat kept on the server each request belongs to (`chatId` in the body), if any, and
   * whether the request is to make it (`newChat`: the first turn of a new chat makes it, with
   * no request of its own).
   */
  chat?: () => { id: string; newChat: boolean } | undefined
  /** The server took a request of chat `id` (its turn is recorded, so the chat exists). */
  accepted?: (id: string) => void
  /**
   * A kept chat's turn that asked questions went on following them on its response (`follow`,
   * whose lines after `turn_end` are their news): handed over, still open, just before the
   * turn's end reaches the state. Without it nothing asks to follow.
   */
  followed?: (carried: CarriedFollow) => void
}): ChatTransport {
  let inFlight: InFlight | undefined
  /** Bumped by New chat: a request of an earlier chat no longer touches the state. */
  let generation = 0
  /** By app, oldest first (a Map keeps insertion order; an update moves its app to the end). */
  const appContext = new Map<string, string>()

  async function request(body: ChatRequest): Promise<void> {
    if (appContext.size > 0) {
      body = { ...body, appContext: [...appContext].slice(-MAX_APP_CONTEXTS).map(([source, text]) => ({ source, text })) }
    }
    const abort = new AbortController()
    const sentIn = generation
    const apply = (action: ChatAction) => {
      if (sentIn === generation) dispatch(action)
    }
    const done = (async () => {
      let streamed = false
      try {
        const waitingOut = {
          signal: abort.signal,
          onWait: (busy: BusyRetry | undefined) => {
            const snapshot = store.getSnapshot()
            if (sentIn === generation && snapshot.busy !== busy) store.publish({ ...snapshot, busy })
          },
        }
        const kept = chat()
        const post = (newChat: boolean) => {
          const sent: ChatRequest = kept === undefined ? body : { ...body, chatId: kept.id, ...(newChat ? { newChat: true } : {}), ...(followed ? { follow: true } : {}) }
          return retryWhileBusy(() => postChat({ body: sent, signal: abort.signal, endpoint, fetch }), waitingOut)
        }
        const response = await post(kept?.newChat === true).catch((failure: unknown) => {
          // The server has this chat already, as this identity's: its first turn was refused after
          // the chat was made (the refusal is kept in it), or the answer to it was lost on the way.
          // The chat goes on as the one it is.
          if (kept?.newChat && failure instanceof ChatHttpError && failure.code === 'chat_exists') return post(false)
          throw failure
        })
        if (kept) accepted(kept.id)
        /** The questions this turn asked: what the rest of its response follows, after `turn_end`. */
        const asked: string[] = []
        const lines = readNdjson<ChatEvent | TurnEndLine>(response.body)
        let carried: CarriedFollow | undefined
        try {
          for (let next = await lines.next(); !next.done; next = await lines.next()) {
            if (abort.signal.aborted) break
            const event = next.value
            if (event.type === 'turn_end') {
              carried = { questions: asked, news: lines as AsyncGenerator<WaitingCallNews, void, undefined>, cancel: () => abort.abort() }
              break
            }
            streamed = true
            if (event.type === 'plugin_elicit_request') asked.push(event.elicitId)
            apply(event)
          }
        } finally {
          // Left early (aborted, a line that is not JSON): the response is let go.
          if (!carried) await lines.return()
        }
        if (abort.signal.aborted) apply({ type: 'local/interrupted', reason: `${STOP_REASON}.` })
        else {
          // Still this chat's: the rest of the response goes to the waiting watch, before the end that makes the page follow.
          if (carried) {
            if (sentIn === generation) followed!(carried)
            else carried.cancel()
          }
          apply({ type: 'local/stream_end' })
        }
      } catch (failure) {
        if (failure instanceof RetryAbortedError) apply({ type: 'local/not_sent', reason: `${STOP_REASON}.` })
        else if (abort.signal.aborted) apply({ type: 'local/interrupted', reason: `${STOP_REASON}.` })
        else if (failure instanceof ChatHttpError) apply({ type: 'local/request_failed', message: failure.message, budgetResetsAt: failure.resetsAt })
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
      ended()
    }
  }

  return {
    request,
    get inFlight() {
      return inFlight !== undefined
    },
    get generation() {
      return generation
    },
    async abort() {
      const current = inFlight
      if (!current) return
      current.abort.abort()
      await current.done
    },
    cut() {
      inFlight?.abort.abort()
    },
    forget() {
      generation++
      inFlight?.abort.abort()
      inFlight = undefined
      appContext.clear()
    },
    async abortQuietly(sessionIds, messages) {
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
    },
    setAppContext(source, text) {
      appContext.delete(source)
      if (text) appContext.set(source.slice(0, 200), text.slice(0, MAX_APP_CONTEXT_CHARS))
    },
  }
}
