'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { listBrowsers, makeCode, revokeBrowser, type ListedBrowser } from './devices-api'

/**
 * "Continue on another device": a modal dialog (the native `<dialog>`, so focus, Escape and the
 * backdrop are the browser's) that makes a one-time code when it opens, shows it with its link
 * and expiry, and lists this identity's browsers with Revoke for each one that can be revoked.
 * Mount it anywhere and drive it with `open` / `onClose` (docs/devices.md).
 */
export function ContinueOnAnotherDevice({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [code, setCode] = useState<{ code: string; expiresAt: number; link: string }>()
  const [browsers, setBrowsers] = useState<ListedBrowser[]>([])
  const [error, setError] = useState<string>()

  const refresh = useCallback(async () => {
    try {
      setBrowsers(await listBrowsers())
    } catch (failure) {
      setError((failure as Error).message)
    }
  }, [])

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) {
      element.showModal()
      setError(undefined)
      setCode(undefined)
      makeCode()
        .then((made) => {
          setCode({ code: made.code, expiresAt: made.expiresAt, link: new URL(made.joinPath, window.location.origin).toString() })
          return refresh()
        })
        .catch((failure: Error) => setError(failure.message))
    }
    if (!open && element.open) element.close()
  }, [open, refresh])

  async function revoke(id: string) {
    try {
      await revokeBrowser(id)
      await refresh()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="devices-title"
      className="w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-50"
    >
      <h2 id="devices-title" className="text-base font-semibold">
        Continue on another device
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        On your other browser, open the link or go to <span className="font-medium">/join</span> and enter this code. It works once, for 10 minutes.
      </p>
      {code ? (
        <div className="mt-4 space-y-2">
          <p className="text-center font-mono text-3xl font-semibold tracking-widest" data-testid="device-code" aria-label={`Code ${code.code.split('').join(' ')}`}>
            {code.code}
          </p>
          <p className="break-all text-center text-xs text-zinc-500">
            <a className="underline" href={code.link}>
              {code.link}
            </a>
          </p>
          <p className="text-center text-xs text-zinc-500">Expires at {new Date(code.expiresAt).toLocaleTimeString()}</p>
        </div>
      ) : !error ? (
        <p className="mt-4 text-sm text-zinc-500">Making a code…</p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <h3 className="mt-5 text-sm font-semibold">Browsers with these chats</h3>
      <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Browsers with these chats">
        {browsers.map((browser) => (
          <li key={browser.id} className="flex items-center justify-between gap-3 py-2 text-sm">
            <span>
              {browser.name}
              {browser.current ? <span className="ml-2 text-xs text-zinc-500">(this browser)</span> : null}
              <span className="block text-xs text-zinc-500">since {new Date(browser.joinedAt).toLocaleString()}</span>
            </span>
            {browser.revocable ? (
              <button
                type="button"
                onClick={() => void revoke(browser.id)}
                aria-label={`Revoke ${browser.name}`}
                className="rounded-lg px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-red-400 dark:hover:bg-red-950"
              >
                Revoke
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex justify-end">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-lg border border-zinc-200 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Done
        </button>
      </div>
    </dialog>
  )
}
