import { headers } from 'next/headers'
import { AuthNotice } from '@/components/auth/AuthNotice'
import { getSignIn } from '@/lib/server/sign-in-instance'

export const dynamic = 'force-dynamic'

/** Where a person the provider knows but the allow-list does not is sent: it names them, and reaches nothing else. */
export default async function NotAllowedPage() {
  const configured = await getSignIn()
  const cookie = (await headers()).get('cookie') ?? ''
  const email = configured?.signIn.refusedEmail(new Request('http://app.invalid/', { headers: { cookie } }))
  return (
    <AuthNotice title="Not allowed here" action={{ href: '/auth/sign-in', label: 'Sign in with another account' }}>
      <p>{email ? `${email} is not allowed here.` : 'That account is not allowed here.'}</p>
      <p>Ask whoever runs this chat to add you, or sign in with another account.</p>
    </AuthNotice>
  )
}
