import { useEffect, useRef } from 'react'

/** A chat just deleted, while undo can still bring it back. */
export interface PendingUndo {
  id: string
  title: string
  /** From when it was shown; then it is gone for good. */
  undoMs: number
}

/**
 * "Chat deleted · Undo", in a polite live region that is always there (so the sentence is read
 * when it comes), for as long as the server can restore the chat; then it goes away by itself.
 * It takes the focus when it comes, as the entry it replaces had it; when it goes with the focus
 * in it, `onExpire` says where the focus goes.
 */
export function UndoToast({ pending, message, onUndo, onExpire }: { pending?: PendingUndo; message?: string; onUndo: () => void; onExpire: (hadFocus: boolean) => void }) {
  const undo = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!pending) return
    undo.current?.focus()
    const timer = setTimeout(() => onExpire(document.activeElement === undo.current), pending.undoMs)
    return () => clearTimeout(timer)
  }, [pending, onExpire])

  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {pending ? (
        <div className="flex items-center justify-between gap-2 rounded-lg bg-zinc-900 py-1.5 pl-3 pr-1.5 text-sm text-zinc-50 shadow-lg dark:bg-zinc-100 dark:text-zinc-900">
          <span className="min-w-0 truncate">Chat deleted</span>
          <button
            ref={undo}
            type="button"
            onClick={onUndo}
            aria-label={`Undo: restore ${pending.title}`}
            className="shrink-0 rounded-md px-2.5 py-1 font-semibold text-sky-300 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-400 dark:text-sky-700 dark:hover:bg-black/10 dark:focus-visible:ring-sky-600"
          >
            Undo
          </button>
        </div>
      ) : message ? (
        <p className="px-1 text-sm text-zinc-700 dark:text-zinc-300">{message}</p>
      ) : null}
    </div>
  )
}
