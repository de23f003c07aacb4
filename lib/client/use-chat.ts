import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { PluginRegistry } from '../plugins'
import type { BusyRetry } from './busy-retry'
import { createChatController, type KeptChatOptions } from './chat-controller'
import type { ChatSnapshot, RenderMap } from './chat-store'
import { initialChatState, type ChatState } from './chat-state'

export interface UseChatResult {
  state: ChatState
  /** What each elicitation's handler rendered, by `renderKey(elicitation)`. */
  renders: RenderMap
  /** False until the chat is loaded from the server (after mount); a new chat is ready at once. */
  ready: boolean
  /** The chat asked for is none of this browser's (unknown, deleted, another browser's). */
  notFound: boolean
  /** The server is busy: the request goes again by itself at `busy.retryAt`, unless stopped. */
  busy?: BusyRetry
  send(text: string): Promise<void>
  stop(): Promise<void>
  /** What an MCP App tells the model; see `ChatController.setAppContext`. */
  setAppContext(source: string, text: string | undefined): void
}

const serverSnapshot: ChatSnapshot = { state: initialChatState, renders: {}, ready: false }

/**
 * The chat in a React component: the conversation, the tool cards, and the components that
 * plugins render to ask the user. The chat is kept on the server (docs/conversations.md):
 * `chatId` opens one as it was, a waiting question included; without, the first send creates
 * one and `onChange` says so (then again after every turn). A new chat, or another one, is
 * another component (a new `key`): nothing of one chat's state carries into the next.
 *
 * @example
 * const registry = createPluginRegistry(pluginUis)
 * function Chat() {
 *   const { state, renders, send, stop } = useChat({ registry })
 *   ...
 * }
 */
export function useChat({
  registry,
  endpoint,
  chatId,
  onChange,
}: {
  registry: PluginRegistry
  endpoint?: string
  /** The kept chat to open; undefined: a new one. Read once: another chat is another component (`key`). */
  chatId?: string
  onChange?: KeptChatOptions['onChange']
}): UseChatResult {
  const changed = useRef(onChange)
  changed.current = onChange
  const [controller] = useState(() =>
    createChatController({ registry, endpoint, kept: { id: chatId, onChange: (change) => changed.current?.(change) } }),
  )
  useEffect(() => {
    controller.attach()
    return () => controller.detach()
  }, [controller])
  const { state, renders, ready, busy, notFound = false } = useSyncExternalStore(controller.subscribe, controller.getSnapshot, () => serverSnapshot)
  return { state, renders, ready, notFound, busy, send: controller.send, stop: controller.stop, setAppContext: controller.setAppContext }
}
