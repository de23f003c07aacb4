import type { ReactNode } from 'react'
import { ChatsShell } from '@/components/chats/ChatsShell'

/**
 * Every page of a chat — `/` (a new one) and `/c/<id>` (a stored one) — beside the sidebar of
 * chats. A layout, so the sidebar (its list, its scroll, an undo under way) stays while the
 * person goes from chat to chat.
 */
export default function ChatsLayout({ children }: { children: ReactNode }) {
  return <ChatsShell>{children}</ChatsShell>
}
