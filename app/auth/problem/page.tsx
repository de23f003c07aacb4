import { AuthNotice } from '@/components/auth/AuthNotice'

export const dynamic = 'force-dynamic'

const PROBLEMS = {
  unreachable: {
    title: 'The sign-in service cannot be reached',
    text: 'This chat could not reach the company’s sign-in service. Nothing is wrong with your account: try again in a moment.',
  },
  failed: {
    title: 'Sign-in did not finish',
    text: 'The sign-in service’s answer could not be verified, so you are not signed in. Try again; if it keeps happening, tell whoever runs this chat.',
  },
  expired: {
    title: 'That sign-in has expired',
    text: 'This sign-in was already used or took too long. Start again.',
  },
} as const

/** Where a sign-in that could not finish is sent; `reason` picks the words (the provider's own never reach the browser). */
export default async function SignInProblemPage({ searchParams }: { searchParams: Promise<{ reason?: string | string[] }> }) {
  const { reason } = await searchParams
  const problem = PROBLEMS[typeof reason === 'string' && reason in PROBLEMS ? (reason as keyof typeof PROBLEMS) : 'failed']
  return (
    <AuthNotice title={problem.title} action={{ href: '/auth/sign-in', label: 'Try again' }}>
      <p>{problem.text}</p>
    </AuthNotice>
  )
}
