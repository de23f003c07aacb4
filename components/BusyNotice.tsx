import { useEffect, useState } from 'react'
import { secondsUntil, untilNextSecond, type BusyRetry } from '@/lib/client'

/** The words of the notice, for `seconds` left: what people read and tests look for. */
export function busyNoticeText(seconds: number): string {
  return `Busy — trying again in ${seconds} s`
}

/**
 * Shown where a refused request's error would be, while the chat waits to send it again
 * because the server is busy: calm, not an error, counting down the seconds. Stop gives the
 * retry up. The polite live region is always there (empty when nothing waits), so that a
 * screen reader hears the notice when it appears, without being interrupted.
 */
export function BusyNotice({ busy }: { busy: BusyRetry | undefined }) {
  return (
    <div role="status" aria-live="polite" data-testid="busy-retry" className="mx-auto w-full max-w-3xl px-3 sm:px-4">
      {busy ? (
        <p className="flex items-center gap-2 rounded-xl border border-zinc-200 bg-zinc-100/70 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900/70 dark:text-zinc-400">
          <span aria-hidden="true" className="h-1.5 w-1.5 shrink-0 animate-pulse rounded-full bg-zinc-400 motion-reduce:animate-none dark:bg-zinc-500" />
          {/* A new wait starts a new countdown. */}
          <Countdown key={busy.retryAt} retryAt={busy.retryAt} />
        </p>
      ) : null}
    </div>
  )
}

function Countdown({ retryAt }: { retryAt: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    // One timer at a time, due when the whole seconds shown change; cleared on unmount.
    const wait = untilNextSecond(retryAt, Date.now())
    if (wait === undefined) return
    const timer = setTimeout(() => setNow(Date.now()), wait)
    return () => clearTimeout(timer)
  }, [retryAt, now])
  return <span>{busyNoticeText(secondsUntil(retryAt, now))}</span>
}
