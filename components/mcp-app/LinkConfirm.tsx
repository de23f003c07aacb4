'use client'

/** A link an app asks to open, waiting for the person: nothing opens until they say so. */
export interface PendingLink {
  url: string
  decide(open: boolean): void
}

/** The question "open this link from the app?" under an app, for `ui/open-link`. */
export function LinkConfirm({ link }: { link: PendingLink }) {
  return (
    <div role="alertdialog" aria-label="Open a link from the app" className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100">
      <p>
        The app wants to open <span className="break-all font-mono">{link.url}</span> in a new tab.
      </p>
      <div className="mt-2 flex gap-2">
        <button type="button" onClick={() => link.decide(true)} className="rounded-md bg-amber-600 px-3 py-1 text-sm font-medium text-white hover:bg-amber-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
          Open link
        </button>
        <button type="button" onClick={() => link.decide(false)} className="rounded-md px-3 py-1 text-sm font-medium hover:bg-amber-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:hover:bg-amber-500/20">
          Cancel
        </button>
      </div>
    </div>
  )
}
