'use client'

import { useRouter } from 'next/navigation'
import type { PluginRegistry } from '@/lib/plugins'
import { Chat } from '../Chat'
import type { Guest, SignedInPerson } from './AccountPanel'
import { ChatsSidebar } from './ChatsSidebar'
import { useShownChat } from './use-shown-chat'

/**
 * Every chat page — `/` (a new chat) and `/c/<id>` (a stored one) — as `app/(chats)/layout.tsx`
 * renders it: the sidebar beside the chat the address shows (`useShownChat`). That one decision
 * names the sidebar's open entry and gives the chat its view: another chat is another `Chat`,
 * nothing of the last one's state in it, however the address got there. `suggestions`: what the
 * plugins suggest saying in an empty chat; `registry`: their browser halves (`createChatRegistry`);
 * `person`: who is signed in (or a guest), when sign-in is configured.
 */
export function ChatsShell({ suggestions, registry, person }: { suggestions: readonly string[]; registry: PluginRegistry; person?: SignedInPerson | Guest }) {
  const router = useRouter()
  const { shown, made } = useShownChat()
  return (
    <ChatsSidebar currentId={shown.id} navigate={(href) => router.push(href)} person={person}>
      <Chat key={shown.view} chatId={shown.open} suggestions={suggestions} registry={registry} onCreated={(id) => made(shown.view, id)} />
    </ChatsSidebar>
  )
}
