import type { ReactNode } from 'react'
import { headers } from 'next/headers'
import { ChatsShell } from '@/components/chats/ChatsShell'
import { getSignIn } from '@/lib/server/sign-in-instance'

/**
 * Every page of a chat — `/` (a new one) and `/c/<id>` (a stored one) — beside the sidebar of
 * chats. A layout, so the sidebar (its list, its scroll, an undo under way) stays while the
 * person goes from chat to chat. With sign-in configured, the sidebar names who is signed in.
 */
export default async function ChatsLayout({ children }: { children: ReactNode }) {
  const configured = await getSignIn()
  const account = configured ? await configured.signIn.account(new Request(configured.config.appUrl, { headers: { cookie: (await headers()).get('cookie') ?? '' } })) : undefined
  return <ChatsShell person={account ? { name: account.name, email: account.email } : undefined}>{children}</ChatsShell>
}
