'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import type { WaitingCallView } from '@/lib/protocol'
import { endWaitingCall } from './admin-api'

/** Ends one waiting call (`POST /api/admin/waiting-calls/end`), then shows the view again without it. */
export function EndCallButton({ call }: { call: Pick<WaitingCallView, 'account' | 'callId' | 'tool' | 'question'> }) {
  const router = useRouter()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  async function end() {
    setBusy(true)
    setError(undefined)
    try {
      await endWaitingCall({ account: call.account, callId: call.callId })
      router.refresh()
    } catch (failure) {
      setError((failure as Error).message)
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        disabled={busy}
        onClick={() => void end()}
        aria-label={`End ${call.tool}'s question ${call.question} (account ${call.account})`}
        className="rounded-lg border border-red-700 px-3 py-1 text-sm font-medium text-red-700 transition enabled:hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:opacity-60 dark:border-red-400 dark:text-red-300 dark:enabled:hover:bg-red-950"
      >
        End
      </button>
      {error ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}
