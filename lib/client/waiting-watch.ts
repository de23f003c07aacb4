import { createSignal, sleep, spawn, until, useAbortSignal, type Operation, type Signal, type Task } from 'effection'
import type { AnsweredCallEvent, EndedCallEvent, WaitingCallNews } from '../protocol/ended-call'
import type { ChatState } from './chat-state'
import { openPageScope, type PageScope } from './page-scope'
import { readNdjson } from './read-ndjson'

/** The first wait before following again after the stream ended with calls still waiting; doubled each time, up to the longest. */
const FIRST_RETRY_MS = 1000
const LONGEST_RETRY_MS = 30_000
/** Ends in a row with no call ended, after which this page follows no more (a reload does). */
const MOST_ENDS_IN_A_ROW = 8

/**
 * A kept chat that shows a question holds one request, `GET /api/chats/:id/waiting?questions=`,
 * which says when a question it shows waiting is answered without this page (on another page or
 * device of the person: `answered`, and the page reads the chat again) or its call ends without
 * it (another page or device stopped it or moved on from it, an operator ended it, its idle
 * time-out did): each such call's event reaches the state as `local/call_ended`. Held exactly while the chat
 * waits for the person (`awaiting_input`: no request of its own in flight) on calls of the
 * server's chat; another set of waiting calls is another request. When it ends while they still
 * wait (the instance stopped, the network dropped), it is made again after a pause that doubles
 * from 1 s to 30 s, at most 8 times in a row without news; a refusal (4xx) ends it for this page.
 * No polling: the server answers when something happens.
 *
 * A turn of this page that asked questions carries that request itself (`POST /api/chat` with
 * `follow`: the lines after its `turn_end`): offered here when the turn ends, it is followed
 * instead of a request of its own when the questions it follows are exactly those the page
 * then shows waiting, and let go otherwise.
 */
export interface WaitingWatch {
  open(): void
  close(): void
  /** A turn's response that goes on following the questions it asked (`CarriedFollow`), for `chatId`: given before that turn's end reaches the state. */
  offer(chatId: string, carried: CarriedFollow): void
  /** Holds the request the state asks for (`chatId`: the server's chat, once it has it), none when it asks for none. */
  reconcile(state: ChatState, chatId: string | undefined): void
}

/** The rest of a turn's response after its `turn_end`: the news of the questions the turn asked. */
export interface CarriedFollow {
  /** The elicit ids of the questions the turn asked: what the rest of the response follows. */
  questions: readonly string[]
  /** Its lines, as they come, until the response ends. */
  news: AsyncGenerator<WaitingCallNews, void, undefined>
  /** Lets the response go. */
  cancel(): void
}

/** What names a set of waiting questions of a chat: the chat and the questions' elicit ids, sorted. */
const keyOf = (chatId: string, questions: readonly string[]) => `${chatId}:${[...questions].sort().join(',')}`

export function createWaitingWatch({
  endpoint = '/api/chats',
  fetch,
  ended,
  answered,
}: {
  endpoint?: string
  fetch: typeof globalThis.fetch
  /** A call ended: told once per event, in a later task than the reconcile that started the request. */
  ended(event: EndedCallEvent): void
  /** A question shown waiting was answered elsewhere: told once per event, as `ended` is. */
  answered(event: AnsweredCallEvent): void
}): WaitingWatch {
  let scope: PageScope | undefined
  /** What the page shows waiting now: a chat's questions, by elicit id (`key` names them), or nothing. */
  let wanted: { key: string; chatId: string; questions: readonly string[] } | undefined
  /** Tells the open scope's task that `wanted` changed. */
  let changed: Signal<void, never> | undefined
  /** A turn's response offered (`offer`), not yet taken by a follow of the same questions or let go. */
  let offered: { key: string; carried: CarriedFollow } | undefined
  const dropOffered = () => {
    offered?.carried.cancel()
    offered = undefined
  }

  /**
   * The open scope's one task: follows what is wanted, one request at a time. Another set of
   * calls halts the request for the last (awaited here) before the next starts.
   */
  function* followWanted(): Operation<void> {
    const signal = createSignal<void, never>()
    const changes = yield* signal
    changed = signal
    let following: { key: string; task: Task<void> } | undefined
    try {
      for (;;) {
        const want = wanted
        if (following?.key !== want?.key) {
          if (following) yield* following.task.halt()
          const carried = want && offered?.key === want.key ? offered.carried : undefined
          if (carried) offered = undefined
          following = want ? { key: want.key, task: yield* spawn(() => follow(want.chatId, want.questions, carried)) } : undefined
        }
        // Offered for questions the page does not show waiting as they are: let go.
        dropOffered()
        yield* changes.next()
      }
    } finally {
      if (changed === signal) changed = undefined
    }
  }

  /**
   * Follows `questions` of the chat `chatId`: the page names the questions it shows waiting, so
   * that one answered on another page is told, and one whose call a turn on another page closed.
   * `carried`: a turn's response that follows them already, read first instead of a request.
   */
  function* follow(chatId: string, questions: readonly string[], carried: CarriedFollow | undefined): Operation<void> {
    // At most 32 named (the server's bound); past that, the calls the chat keeps waiting (their ends only).
    const query = questions.length <= 32 ? `?questions=${questions.map(encodeURIComponent).join(',')}` : ''
    const signal = yield* useAbortSignal()
    let endsInARow = 0
    try {
      while (endsInARow < MOST_ENDS_IN_A_ROW) {
        const heard = yield* readNews(chatId, query, signal, carried)
        // Refused (the chat is gone, too many followed at once): a reload follows again.
        if (heard === 'refused') return
        carried = undefined
        endsInARow = heard ? 0 : endsInARow + 1
        yield* sleep(Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, endsInARow - 1)))
      }
    } finally {
      carried?.cancel()
    }
  }

  /**
   * One response's news (the carried one, else a request of its own), until it ends: whether a
   * call ended in it, or `refused` (4xx).
   */
  function* readNews(chatId: string, query: string, signal: AbortSignal, carried: CarriedFollow | undefined): Operation<boolean | 'refused'> {
    let heard = false
    try {
      let events = carried?.news
      if (!events) {
        // Past the browser's HTTP cache: two pages of one browser following the same chat would otherwise
        // wait in line on its lock for one URL (the first's headers come only with its first line).
        const response = yield* until(
          fetch(`${endpoint}/${encodeURIComponent(chatId)}/waiting${query}`, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/x-ndjson' }, signal }),
        )
        if (response.status >= 400 && response.status < 500) return 'refused'
        if (response.ok && response.body) events = readNdjson<WaitingCallNews>(response.body)
      }
      if (events) {
        for (let next = yield* until(events.next()); !next.done; next = yield* until(events.next())) {
          const event = next.value
          if (event.type === 'plugin_session_error' || event.type === 'tool_result' || event.type === 'tool_error') {
            heard = true
            ended(event)
          }
          // Not news that resets the pauses: a chat read again that does not hold the answer yet (its
          // turn still being kept) leaves the question shown, and it is told again after the pause.
          if (event.type === 'call_answered') answered(event)
        }
      }
    } catch {
      // The connection dropped or the answer was cut: follow again.
    }
    return heard
  }

  return {
    open() {
      if (scope) return
      scope = openPageScope()
      scope.run(followWanted)
    },
    close() {
      const closing = scope
      scope = undefined
      changed = undefined
      dropOffered()
      closing?.close()
    },
    offer(chatId, carried) {
      dropOffered()
      // Closed (the page let the chat go): nothing will take it.
      if (!scope) return carried.cancel()
      offered = { key: keyOf(chatId, carried.questions), carried }
    },
    reconcile(state, chatId) {
      const waitingOn =
        chatId !== undefined && state.status === 'awaiting_input'
          ? [...new Set(state.entries.flatMap((entry) => (entry.kind === 'tool' ? entry.elicitations.filter((one) => one.status === 'waiting').map((one) => one.question.elicitId) : [])))].sort()
          : []
      const key = waitingOn.length > 0 ? keyOf(chatId!, waitingOn) : undefined
      if (wanted?.key === key) {
        // Followed already, or nothing to follow: a turn's response offered for them is not needed.
        if (offered) dropOffered()
        return
      }
      wanted = key === undefined ? undefined : { key, chatId: chatId!, questions: waitingOn }
      changed?.send()
    },
  }
}
