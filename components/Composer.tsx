import { useEffect, useId, useImperativeHandle, useRef, useState, type FormEvent, type KeyboardEvent, type Ref, type RefObject } from 'react'
import type { ChatStatus } from '@/lib/client'
import { ArrowUpIcon, StopIcon } from './icons'

export interface ToolSuggestion {
  name: string
  description: string
}

/** What the chat may do to the message box besides focusing it. */
export interface ComposerHandle {
  /** Start a slash command with `text` (e.g. `/files__`): the matching tools are suggested, the box has the focus. */
  startCommand(text: string): void
  /** Put back a message that was not sent (its text, unless the box has new text already), with the focus. */
  keep(text: string): void
}

/** The most tool names suggested at once. */
const MAX_SUGGESTIONS = 8

/**
 * The message box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs or a tool
 * waits. `/` starts a slash command (`/<tool> <json>`): the tools whose names match are
 * suggested in a list (arrow keys move, Enter or Tab picks, Escape closes).
 */
export function Composer({
  status,
  ready,
  onSend,
  onStop,
  inputRef,
  tools = [],
  onCommandStart,
  handle,
}: {
  status: ChatStatus
  ready: boolean
  onSend: (text: string) => void
  onStop: () => void
  /** The message box, for the chat to give it the focus. */
  inputRef?: RefObject<HTMLTextAreaElement | null>
  /** The tools a slash command can call. */
  tools?: readonly ToolSuggestion[]
  /** The user typed `/` at the start: a good moment to read the tools again. */
  onCommandStart?: () => void
  handle?: Ref<ComposerHandle>
}) {
  const [text, setText] = useState('')
  const listId = useId()
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<string | undefined>(undefined)
  const typing = /^\/([A-Za-z0-9_-]*)$/.exec(text)
  const suggestions =
    typing && dismissed !== text
      ? tools.filter((tool) => tool.name.toLowerCase().includes(typing[1]!.toLowerCase())).slice(0, MAX_SUGGESTIONS)
      : []
  const open = suggestions.length > 0
  const current = open ? Math.min(active, suggestions.length - 1) : -1
  const ownInput = useRef<HTMLTextAreaElement>(null)
  const input = inputRef ?? ownInput
  const busy = status === 'streaming' || status === 'awaiting_input'
  const stopHadFocus = useRef(false)

  // Stop goes away when the turn ends: its focus goes to the message box, not to the page.
  useEffect(() => {
    if (!busy && stopHadFocus.current) {
      stopHadFocus.current = false
      const active = document.activeElement
      if (!active || active === document.body) input.current?.focus()
    }
  }, [busy, input])
  const canSend = ready && !busy && text.trim() !== ''

  function submit(event?: FormEvent) {
    event?.preventDefault()
    if (!canSend) return
    onSend(text)
    setText('')
    input.current?.focus()
  }

  useImperativeHandle(
    handle,
    () => ({
      startCommand(command) {
        onCommandStart?.()
        setText(command)
        setActive(0)
        setDismissed(undefined)
        input.current?.focus()
      },
      keep(unsent) {
        setText((current) => (current.trim() === '' ? unsent : current))
        input.current?.focus()
      },
    }),
    [input, onCommandStart],
  )

  function pick(name: string) {
    setText(`/${name} `)
    setActive(0)
    input.current?.focus()
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActive((current + step + suggestions.length) % suggestions.length)
        return
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault()
        pick(suggestions[current]!.name)
        return
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        setDismissed(text)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <form onSubmit={submit} data-composer className="mx-auto w-full max-w-3xl px-3 pb-3 pt-2 sm:px-4 sm:pb-4">
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Tools"
          className="mb-2 max-h-64 overflow-y-auto rounded-xl border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {suggestions.map((tool, index) => (
            <li
              key={tool.name}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              // The textarea keeps the focus: a pointer press must not take it away.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(tool.name)}
              className={`cursor-pointer rounded-lg px-3 py-1.5 text-sm ${index === current ? 'bg-sky-50 dark:bg-sky-500/15' : ''}`}
            >
              <span className="font-mono font-medium text-zinc-900 dark:text-zinc-100">/{tool.name}</span>
              {tool.description ? <span className="ml-2 text-zinc-500 dark:text-zinc-400">{clip(tool.description)}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm transition focus-within:border-sky-500 focus-within:ring-2 focus-within:ring-sky-500/20 dark:border-zinc-700 dark:bg-zinc-900 dark:focus-within:border-sky-500">
        <label htmlFor="composer-message" className="sr-only">
          Message
        </label>
        <textarea
          id="composer-message"
          ref={input}
          rows={1}
          value={text}
          onChange={(event) => {
            const next = event.target.value
            if (next === '/' && text === '') onCommandStart?.()
            setText(next)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
          // A textbox still (what people and tests find it as), which names its list of suggestions.
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${current}` : undefined}
          placeholder={status === 'awaiting_input' ? 'Waiting for your answer…' : 'Message the assistant…'}
          className="max-h-48 min-h-[2.5rem] flex-1 resize-none bg-transparent px-2 py-2 text-[15px] leading-6 text-zinc-900 placeholder:text-zinc-400 focus:outline-none dark:text-zinc-100 dark:placeholder:text-zinc-500 [field-sizing:content]"
        />
        {busy ? (
          <button
            type="button"
            onClick={onStop}
            onFocus={() => (stopHadFocus.current = true)}
            // A blur without a next element is the button going away: that is when the focus must move.
            onBlur={(event) => {
              if (event.relatedTarget) stopHadFocus.current = false
            }}
            aria-label="Stop"
            title="Stop"
            className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-zinc-900 text-white transition hover:bg-zinc-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white dark:focus-visible:ring-offset-zinc-900"
          >
            <StopIcon className="h-4 w-4" />
          </button>
        ) : null}
        <button
          type="submit"
          disabled={!canSend}
          aria-label="Send"
          title="Send"
          className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-sky-600 text-white transition enabled:hover:bg-sky-700 disabled:cursor-not-allowed disabled:bg-zinc-200 disabled:text-zinc-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:bg-sky-600 dark:enabled:hover:bg-sky-500 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-600 dark:focus-visible:ring-offset-zinc-900"
        >
          <ArrowUpIcon className="h-5 w-5" />
        </button>
      </div>
      <p className="mt-1.5 hidden text-center text-xs text-zinc-500 dark:text-zinc-400 sm:block">
        Enter to send · Shift+Enter for a new line · / to call a tool
      </p>
    </form>
  )
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}
