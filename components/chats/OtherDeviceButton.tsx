'use client'

import { lazy, Suspense, useState } from 'react'

// The dialog (and its code) is loaded when first opened: the sidebar is in the chat's first load.
const ContinueOnAnotherDevice = lazy(() => import('@/components/devices/ContinueOnAnotherDevice').then((module) => ({ default: module.ContinueOnAnotherDevice })))

/** The sidebar's way to "Continue on another device" (docs/devices.md): a button that opens its dialog. */
export function OtherDeviceButton() {
  const [open, setOpen] = useState(false)
  const [used, setUsed] = useState(false)
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setUsed(true)
          setOpen(true)
        }}
        className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-zinc-700 transition hover:bg-zinc-200/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" className="h-4 w-4 shrink-0">
          <rect x="2.5" y="4" width="10" height="7.5" rx="1" />
          <path d="M1.5 14h12" strokeLinecap="round" />
          <rect x="14" y="7" width="4.5" height="9" rx="1" />
        </svg>
        Continue on another device
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ContinueOnAnotherDevice open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}
