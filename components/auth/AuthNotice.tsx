import type { ReactNode } from 'react'

/**
 * The sign-in's own pages (not allowed, signed out, a sign-in that could not finish): one card
 * in the chat's style, light and dark, with one way on.
 */
export function AuthNotice({ title, children, action }: { title: string; children: ReactNode; action: { href: string; label: string } }) {
  return (
    <main className="flex min-h-dvh items-start justify-center bg-white px-4 dark:bg-zinc-950">
      <div className="mt-16 w-full max-w-sm space-y-4 sm:mt-24">
        <p className="text-sm font-semibold text-zinc-500 dark:text-zinc-400">Elicit Chat</p>
        <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">{title}</h1>
        <div className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">{children}</div>
        <a
          href={action.href}
          className="inline-block w-full rounded-lg bg-sky-700 px-3 py-2 text-center text-sm font-semibold text-white hover:bg-sky-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-950"
        >
          {action.label}
        </a>
      </div>
    </main>
  )
}
