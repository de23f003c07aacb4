import { AuthNotice } from '@/components/auth/AuthNotice'

export const dynamic = 'force-dynamic'

/** After `POST /auth/sign-out`: the session has ended on every instance. */
export default function SignedOutPage() {
  return (
    <AuthNotice title="You are signed out" action={{ href: '/auth/sign-in', label: 'Sign in again' }}>
      <p>Your session has ended. Your chats stay with your account for when you sign in again.</p>
    </AuthNotice>
  )
}
