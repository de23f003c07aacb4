import { ChatsShell } from '@/components/chats/ChatsShell'
import { pluginSuggestions } from '@/plugins'

/**
 * Every page of a chat — `/` (a new one) and `/c/<id>` (a stored one) — is the same view: the
 * sidebar of chats beside the chat the address names (components/chats/ChatsShell.tsx). A layout,
 * so it stays while the person goes from chat to chat: the sidebar keeps its list, its scroll and
 * an undo under way, and which chat is shown is decided in one place, from the address. The pages
 * only make the routes exist; they render nothing.
 */
export default function ChatsLayout() {
  return <ChatsShell suggestions={pluginSuggestions} />
}
