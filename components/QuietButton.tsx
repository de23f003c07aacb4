import type { ButtonHTMLAttributes } from 'react'

/**
 * The low-key button of a plugin's question — Decline, Cancel, Resign — beside the choices
 * that answer it. A plain `<button type="button">` with the shared look.
 */
export function QuietButton(props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'>) {
  return (
    <button
      {...props}
      type="button"
      className="rounded-lg px-3 py-1.5 text-sm font-medium text-zinc-700 transition enabled:hover:bg-zinc-100 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-300 dark:enabled:hover:bg-zinc-800"
    />
  )
}
