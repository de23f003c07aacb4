import type { ChatAction, ChatState } from './chat-state'
import type { ChatPersistence } from './persistence'

/**
 * When the chat is written to its persistence: streamed text at most once per `delayMs` (a
 * token at a time would write the whole chat for each), every other change at once, and nothing
 * until the stored chat is back — a write before then would replace it with an empty chat.
 */
export interface ChatSaver {
  /** After a change of the state: streamed text soon, anything else now. */
  changed(action: ChatAction): void
  /** Write now (the page hides, a request ended, the chat detaches). */
  now(): void
  /** The stored chat is back (or there was none): writes may start. */
  restored(): void
  readonly isRestored: boolean
}

export function createChatSaver({
  persistence,
  delayMs,
  state,
}: {
  persistence?: ChatPersistence
  delayMs: number
  /** The state to write: the latest. */
  state: () => ChatState
}): ChatSaver {
  let timer: ReturnType<typeof setTimeout> | undefined
  let isRestored = false

  function now() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (isRestored) persistence?.save(state())
  }

  return {
    changed(action) {
      if (action.type !== 'text') return now()
      if (!persistence || timer !== undefined) return
      timer = setTimeout(now, delayMs)
    },
    now,
    restored() {
      isRestored = true
    },
    get isRestored() {
      return isRestored
    },
  }
}
