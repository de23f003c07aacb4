import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react'
import type { ChatStatus } from '@/lib/client'
import { ArrowUpIcon, StopIcon } from './icons'

/** The message box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs or a tool waits. */
export function Composer({
  status,
  ready,
  onSend,
  onStop,
  inputRef,
}: {
  status: ChatStatus
  ready: boolean
  onSend: (text: string) => void
  onStop: () => void
  /** The message box, for the chat to give it the focus. */
  inputRef?: RefObject<HTMLTextAreaElement | null>
}) {
  const [text, setText] = useState('')
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

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <form onSubmit={submit} data-composer className="mx-auto w-full max-w-3xl px-3 pb-3 pt-2 sm:px-4 sm:pb-4">
      <div className="flex items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm transition focus-within:border-sky-500 focus-within:ring-2 focus-within:ring-sky-500/20 dark:border-zinc-700 dark:bg-zinc-900 dark:focus-within:border-sky-500">
        <label htmlFor="composer-message" className="sr-only">
          Message
        </label>
        <textarea
          id="composer-message"
          ref={input}
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
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
        Enter to send · Shift+Enter for a new line
      </p>
    </form>
  )
}
