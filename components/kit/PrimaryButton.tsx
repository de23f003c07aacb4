import type { ButtonHTMLAttributes } from 'react'

/**
 * The main action of a question — Confirm, Send, Book — in the look every plugin shares: white
 * on sky-700 (5.9:1, light and dark), a focus ring, and a plain grey while it waits for
 * something (a seat to be picked, text to be typed). Beside it, `QuietButton` for Cancel.
 *
 * @example
 * <PrimaryButton disabled={!selected} onClick={() => respond({ action: 'accept', content: selected })}>Confirm</PrimaryButton>
 */
export function PrimaryButton({ type = 'button', ...props }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'type'> & { type?: 'button' | 'submit' }) {
  return (
    <button
      {...props}
      type={type}
      className="rounded-lg bg-sky-700 px-4 py-1.5 text-sm font-semibold text-white shadow-sm transition enabled:hover:bg-sky-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:bg-zinc-200 disabled:text-zinc-600 disabled:shadow-none dark:focus-visible:ring-offset-zinc-900 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-400"
    />
  )
}
