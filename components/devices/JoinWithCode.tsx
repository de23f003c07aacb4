'use client'

import { useState, type FormEvent } from 'react'
import { joinWithCode } from './devices-api'

/**
 * The join form: a code from another browser (typed, or given in the link's `?code=`). Joining
 * replaces this browser's own identity, so it says so before; once joined it goes to the chats.
 */
export function JoinWithCode({ initialCode = '' }: { initialCode?: string }) {
  const [code, setCode] = useState(initialCode)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await joinWithCode(code)
      window.location.assign('/')
    } catch (failure) {
      setError((failure as Error).message)
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="mx-auto mt-16 max-w-sm space-y-4 px-4">
      <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">Continue on this device</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Enter the code shown on your other browser. This browser will then show that browser’s chats instead of its own.
      </p>
      <label className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Code
        <input
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={32}
          placeholder="ABCD-EFGH"
          className="mt-1 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-lg tracking-widest text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-50"
        />
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-lg bg-sky-600 px-3 py-2 text-sm font-semibold text-white hover:bg-sky-700 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
      >
        {busy ? 'Joining…' : 'Join'}
      </button>
    </form>
  )
}
