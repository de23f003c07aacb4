import Link from 'next/link'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { ChatsApiError, type ListedChat } from './chats-api'
import { EntryMenu } from './EntryMenu'

/** What a chat without a title (no message yet) is called in the list. */
export const UNTITLED = 'New chat'

/**
 * One chat in the sidebar: a link to `/c/<id>` named by its title (and, when a question in it
 * waits, by that too), and its menu. Rename edits the title in place: Enter saves and Escape
 * cancels, the focus back on the link either way; leaving the field cancels too.
 */
export function ChatEntry({
  chat,
  current,
  onRename,
  onDelete,
}: {
  chat: ListedChat
  current: boolean
  /** Throws the refusal when the server refuses the title. */
  onRename: (title: string) => Promise<void>
  onDelete: () => void
}) {
  const title = chat.title || UNTITLED
  const [editing, setEditing] = useState(false)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const link = useRef<HTMLAnchorElement>(null)
  const field = useRef<HTMLInputElement>(null)
  /** Set when the editing ends: the link takes the focus once it is back. */
  const refocus = useRef(false)
  const errorId = useId()

  useEffect(() => {
    if (editing) field.current?.select()
    else if (refocus.current) {
      refocus.current = false
      link.current?.focus()
    }
  }, [editing])

  /** Back to the link, the focus left where it is (the person went elsewhere). */
  const cancel = () => {
    setError(undefined)
    setEditing(false)
  }
  /** Back to the link, with the focus. */
  const stop = () => {
    refocus.current = true
    cancel()
  }
  const save = async (value: string) => {
    if (value.trim() === chat.title) return stop()
    setSaving(true)
    try {
      await onRename(value)
      stop()
    } catch (failure) {
      setError(failure instanceof ChatsApiError ? failure.message : 'The chat could not be renamed.')
    } finally {
      setSaving(false)
    }
  }
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      void save(event.currentTarget.value)
    } else if (event.key === 'Escape') {
      // Handled here: the drawer around the field stays open.
      event.preventDefault()
      stop()
    }
  }

  if (editing) {
    return (
      <li className="px-1 py-0.5">
        <input
          ref={field}
          aria-label={`Rename ${title}`}
          defaultValue={chat.title}
          maxLength={120}
          autoFocus
          readOnly={saving}
          aria-invalid={error !== undefined}
          aria-describedby={error ? errorId : undefined}
          onKeyDown={onKey}
          onBlur={() => {
            if (!saving) cancel()
          }}
          className="w-full rounded-md border border-sky-500 bg-white px-2 py-1.5 text-sm text-zinc-900 outline-none ring-2 ring-sky-500/30 dark:bg-zinc-950 dark:text-zinc-100"
        />
        {error ? (
          <p id={errorId} role="alert" className="px-1 pt-1 text-xs text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </li>
    )
  }

  return (
    <li
      className={`group flex items-center gap-1 rounded-lg pr-1 transition ${
        current ? 'bg-white shadow-sm dark:bg-zinc-800' : 'hover:bg-zinc-200/70 dark:hover:bg-zinc-800/60'
      }`}
    >
      <Link
        ref={link}
        href={`/c/${chat.id}`}
        // Up to 200 links in view: prefetching each would ask the server for every listed chat's page.
        prefetch={false}
        aria-current={current ? 'page' : undefined}
        title={title}
        className={`flex min-w-0 flex-1 items-center gap-2 rounded-lg px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500 ${
          current ? 'font-medium text-zinc-900 dark:text-zinc-50' : 'text-zinc-700 dark:text-zinc-300'
        }`}
      >
        <span className="truncate">{title}</span>
        {chat.waiting ? (
          <>
            <span aria-hidden="true" title="Waiting for your answer" className="ml-auto h-2 w-2 shrink-0 rounded-full bg-amber-500" />
            <span className="sr-only"> — waiting for your answer</span>
          </>
        ) : null}
      </Link>
      <EntryMenu id={chat.id} title={title} onRename={() => setEditing(true)} onDelete={onDelete} />
    </li>
  )
}
