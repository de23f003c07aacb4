/** The words of the notice for a reset at `resetsAt` (ISO time), in the reader's own time: what people read and tests look for. */
export function budgetNoticeText(resetsAt: string, locale?: string): string {
  const time = new Date(resetsAt).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
  return `Today's model budget is used up. It resets at ${time} (your local time).`
}

/**
 * Shown where a refused request's error would be when the last message was refused because
 * today's model budget is spent: calm, not an error, and not retried; the message waits in the
 * composer.
 */
export function BudgetNotice({ resetsAt }: { resetsAt: string }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-3 sm:px-4">
      <p
        role="status"
        data-testid="budget-notice"
        className="rounded-xl border border-zinc-200 bg-zinc-100/70 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900/70 dark:text-zinc-400"
      >
        {budgetNoticeText(resetsAt)}
      </p>
    </div>
  )
}
