import { useEffect, useState, useSyncExternalStore } from 'react'
import type { PluginRegistry } from '../plugins'
import type { BusyRetry } from './busy-retry'
import { createChatController } from './chat-controller'
import type { ChatSnapshot, RenderMap } from './chat-store'
import { initialChatState, type ChatState } from './chat-state'
import { createBrowserPersistence } from './persistence'

export interface UseChatResult {
  state: ChatState
  /** What each elicitation's handler rendered, by `renderKey(elicitation)`. */
  renders: RenderMap
  /** False until the chat stored in this browser is back (it is read after mount). */
  ready: boolean
  /** The server is busy: the request goes again by itself at `busy.retryAt`, unless stopped. */
  busy?: BusyRetry
  send(text: string): Promise<void>
  stop(): Promise<void>
  newChat(): Promise<void>
  /** What an MCP App tells the model; see `ChatController.setAppContext`. */
  setAppContext(source: string, text: string | undefined): void
}

const serverSnapshot: ChatSnapshot = { state: initialChatState, renders: {}, ready: false }

/**
 * The chat in a React component: the conversation, the tool cards, and the components that
 * plugins render to ask the user. The chat survives a reload, a waiting question included.
 *
 * @example
 * const registry = createPluginRegistry(pluginUis)
 * function Chat() {
 *   const { state, renders, send, stop, newChat } = useChat({ registry })
 *   ...
 * }
 */
export function useChat({ registry, endpoint }: { registry: PluginRegistry; endpoint?: string }): UseChatResult {
  const [controller] = useState(() => createChatController({ registry, endpoint, persistence: createBrowserPersistence() }))
  useEffect(() => {
    controller.attach()
    return () => controller.detach()
  }, [controller])
  const { state, renders, ready, busy } = useSyncExternalStore(controller.subscribe, controller.getSnapshot, () => serverSnapshot)
  return { state, renders, ready, busy, send: controller.send, stop: controller.stop, newChat: controller.newChat, setAppContext: controller.setAppContext }
}
