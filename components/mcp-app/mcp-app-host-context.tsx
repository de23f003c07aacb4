'use client'

import { createContext, useContext } from 'react'

/** What an MCP App may do to the chat it is shown in, given by the chat. */
export interface McpAppHost {
  /** `ui/message`: a user message into the chat. False when the chat cannot take one now (busy). */
  sendMessage(text: string): boolean
  /** `ui/update-model-context`: what the model sees on its next turns, by app; `undefined` forgets it. */
  setAppContext(source: string, text: string | undefined): void
}

const McpAppHostContext = createContext<McpAppHost | undefined>(undefined)

export const McpAppHostProvider = McpAppHostContext.Provider

export function useMcpAppHost(): McpAppHost | undefined {
  return useContext(McpAppHostContext)
}
