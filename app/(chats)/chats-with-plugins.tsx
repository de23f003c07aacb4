'use client'

import type { ComponentProps } from 'react'
import { createChatRegistry } from '@/components/chat-registry'
import { ChatsShell } from '@/components/chats/ChatsShell'
import { pluginUis } from '@/plugins/browser'

/**
 * Where the browser's side of the app is composed: the chats' view with the plugins' browser
 * halves (`plugins/browser.ts`). The chat UI (`components/`) never imports `plugins/`, whose
 * components import the kit: the two folders import one way only.
 */
const registry = createChatRegistry(pluginUis)

export function ChatsWithPlugins(props: Omit<ComponentProps<typeof ChatsShell>, 'registry'>) {
  return <ChatsShell {...props} registry={registry} />
}
