import type { RenderedComponent } from '../plugins'
import type { BusyRetry } from './busy-retry'
import { initialChatState, reduceChat, type ChatAction, type ChatState } from './chat-state'

/** The components each elicitation's handler rendered, by `renderKey`, in render order. */
export type RenderMap = Readonly<Record<string, readonly RenderedComponent[]>>

export interface ChatSnapshot {
  state: ChatState
  renders: RenderMap
  /** False until the kept chat has been loaded (after mount, in the browser); a new chat is ready at once. */
  ready: boolean
  /**
   * The request in flight was refused because the server is busy, and goes again by itself at
   * `retryAt` (see `retryWhileBusy`); Stop gives it up. Not kept: a reload ends the turn.
   */
  busy?: BusyRetry
  /** The chat named by the URL is none of this browser's (unknown, deleted, another browser's): nothing to show. */
  notFound?: boolean
}

/**
 * What the chat shows, held for React (`useSyncExternalStore`): one snapshot, replaced whole on
 * every change, so a listener compares by identity. The state changes through `reduceChat`
 * (`dispatch`), or is replaced whole (a kept chat loaded, New chat); what is not in the state — the
 * handlers' renders, the busy notice — changes through `publish`.
 */
export interface ChatStore {
  getSnapshot(): ChatSnapshot
  subscribe(listener: () => void): () => void
  publish(next: ChatSnapshot): void
  /** Reduce one action into the state; true when it changed anything. */
  dispatch(action: ChatAction): boolean
}

export function createChatStore(): ChatStore {
  let snapshot: ChatSnapshot = { state: initialChatState, renders: {}, ready: false }
  const listeners = new Set<() => void>()

  function publish(next: ChatSnapshot) {
    snapshot = next
    for (const listener of [...listeners]) listener()
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    publish,
    dispatch(action) {
      const state = reduceChat(snapshot.state, action)
      if (state === snapshot.state) return false
      publish({ ...snapshot, state })
      return true
    },
  }
}
