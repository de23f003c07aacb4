import { headers } from 'next/headers'
import { isAuthStoreUnavailable } from '@/lib/auth'
import { getPersonalAccess } from '@/lib/server/mcp-clients-instance'
import { getSignIn } from '@/lib/server/sign-in-instance'
import { pluginSuggestions } from '@/plugins'
import { ChatsWithPlugins } from './chats-with-plugins'

/**
 * Every page of a chat — `/` (a new one) and `/c/<id>` (a stored one) — is the same view: the
 * sidebar of chats beside the chat the address names (components/chats/ChatsShell.tsx). A layout,
 * so it stays while the person goes from chat to chat: the sidebar keeps its list, its scroll and
 * an undo under way, and which chat is shown is decided in one place, from the address. The pages
 * only make the routes exist; they render nothing. With sign-in configured, the sidebar names who
 * is signed in, or offers a guest to sign in.
 */
export default async function ChatsLayout() {
  const configured = await getSignIn()
  if (!configured) return <ChatsWithPlugins suggestions={pluginSuggestions} />
  const request = new Request(configured.config.appUrl, { headers: { cookie: (await headers()).get('cookie') ?? '' } })
  const account = await configured.signIn.account(request).catch((error: unknown) => {
    // Sign-ins out of reach: the proxy answered the 503 page already, unless guests may chat — then the page is a guest's.
    if (configured.signIn.guests && isAuthStoreUnavailable(error)) return undefined
    throw error
  })
  // Each person's credentials exist only when mcp.json has url or sse servers: then sign-out asks whether to keep them.
  const person = account ? { name: account.name, email: account.email, connectsMcpServers: (await getPersonalAccess()) !== undefined } : configured.signIn.guests ? { guest: true as const } : undefined
  return <ChatsWithPlugins suggestions={pluginSuggestions} person={person} />
}
