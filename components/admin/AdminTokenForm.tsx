'use client'

import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { PrimaryButton } from '@/components/kit'
import { exchangeAdminToken } from './admin-api'

/**
 * The way in without sign-in: the admin token, typed once, exchanged for an HttpOnly cookie by
 * `POST /api/admin/session`. The token goes in the request's body only — never in the address,
 * never kept by the page — and the field is emptied either way.
 */
export function AdminTokenForm() {
  const router = useRouter()
  const [token, setToken] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await exchangeAdminToken(token)
      router.refresh()
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setToken('')
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-6 max-w-sm space-y-4">
      <label className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Admin token
        <input
          type="password"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={1000}
          className="mt-1 block w-full rounded-lg border border-zinc-500 bg-white px-3 py-2 text-sm text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-500 dark:bg-zinc-900 dark:text-zinc-50"
        />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <PrimaryButton type="submit" disabled={busy || token.length === 0}>
        {busy ? 'Checking…' : 'Open the operator’s view'}
      </PrimaryButton>
    </form>
  )
}
