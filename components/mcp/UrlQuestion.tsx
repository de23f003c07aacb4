'use client'

import { useId, useState } from 'react'
import type { ElicitAnswer } from '@/lib/protocol'
import { safeHref } from '@/lib/client'
import { QuestionPanel } from '../kit'
import { AnswerButtons, AnswerSummary } from './answer-parts'

/**
 * An external server asks the user to do something on a web page (MCP URL mode): the link,
 * opened in a new tab, and an explicit confirmation that it was done before Accept counts.
 */
export function UrlQuestion({
  message,
  server,
  url,
  onRespond,
  disabled,
  response,
}: {
  message: string
  server: string
  url: string
  onRespond: (answer: ElicitAnswer<Record<string, never>>) => void
  disabled: boolean
  response?: ElicitAnswer<unknown>
}) {
  const id = useId()
  const [confirmed, setConfirmed] = useState(false)
  const href = safeHref(url)
  return (
    <QuestionPanel label={`Link from ${server}`} tone="amber" title={`${server} asks you to open a page`} prompt={<span className="whitespace-pre-wrap">{message}</span>}>
      <p className="mt-3 break-all text-sm">
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer" className="font-medium text-sky-700 underline dark:text-sky-400">
            {url}
          </a>
        ) : (
          <span className="text-red-700 dark:text-red-300">This link cannot be opened safely: {url}</span>
        )}
      </p>
      {response ? (
        <AnswerSummary answer={response} />
      ) : (
        <>
          <label htmlFor={id} className="mt-3 flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
            <input id={id} type="checkbox" className="h-4 w-4" disabled={disabled || !href} checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
            I opened the page and finished there
          </label>
          <div className="mt-3">
            <AnswerButtons disabled={disabled} acceptDisabled={!confirmed} onRespond={onRespond} onAccept={() => onRespond({ action: 'accept', content: {} })} />
          </div>
        </>
      )}
    </QuestionPanel>
  )
}
