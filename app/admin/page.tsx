import type { Metadata } from 'next'
import { headers } from 'next/headers'
import { AdminTokenForm } from '@/components/admin/AdminTokenForm'
import { OperatorPanel } from '@/components/admin/OperatorPanel'
import { toChatFailure } from '@/lib/http'
import type { OperatorView } from '@/lib/protocol'
import { getAdminApp } from '@/lib/server/admin-app'
import { readOperatorView } from '@/lib/server/read-operator-view'

export const dynamic = 'force-dynamic'
export const metadata: Metadata = { title: 'Operator’s view · Elicit Chat' }

/**
 * `/admin`: the operator's view for an admin — signed in as one (`AUTH_ADMIN_*`), or holding the
 * admin cookie that `ADMIN_TOKEN` is exchanged for in the form shown to anyone else.
 */
export default async function AdminPage() {
  const app = await getAdminApp()
  const asked = new Request('http://localhost/admin', { headers: await headers() })
  const admin = await app.access.isAdmin(asked)
  let view: OperatorView | undefined
  let problem: string | undefined
  if (admin) {
    try {
      view = await readOperatorView(await app.operator())
    } catch (error) {
      const failure = toChatFailure(error)
      if (!failure) throw error
      problem = failure.message
    }
  }
  return (
    <main className="min-h-dvh bg-white px-4 py-8 text-zinc-900 sm:px-8 dark:bg-zinc-950 dark:text-zinc-50">
      <div className="mx-auto max-w-4xl">
        <h1 className="text-xl font-semibold">Operator’s view</h1>
        {view ? (
          <OperatorPanel view={view} />
        ) : problem ? (
          <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        ) : app.access.tokenConfigured ? (
          <>
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">This page is for admins. Sign in as one, or give the admin token (ADMIN_TOKEN).</p>
            <AdminTokenForm />
          </>
        ) : (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">This page is for admins: sign in as one (AUTH_ADMIN_EMAILS, AUTH_ADMIN_GROUPS). No ADMIN_TOKEN is configured.</p>
        )}
      </div>
    </main>
  )
}
