'use client'

import type { ElicitAnswer } from '@/lib/protocol'
import type { QuestionProps } from '@/lib/plugins'
import type { ApprovalAnswer, ApprovalQuestion } from '@/lib/mcp/client/external-questions'
import { AlertIcon } from '../icons'
import { QuestionPanel } from '../kit'
import { QuietButton } from '../QuietButton'
import { AnswerSummary, ANSWER_BUTTON } from './answer-parts'

const SECOND_BUTTON =
  'rounded-lg border border-sky-700 px-3 py-1.5 text-sm font-medium text-sky-800 transition enabled:hover:bg-sky-50 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:border-sky-400 dark:text-sky-300 dark:enabled:hover:bg-sky-500/10 dark:focus-visible:ring-offset-zinc-900'

/** A string this long, or with a line break, is shown as a block of its own. */
const LONG_TEXT = 60

/**
 * The approval question of a call the model makes, as the chat asks it: once answered, the chat
 * folds it to one line in the words of its form ("bump on faulty · Allowed once").
 */
export function ApprovalQuestionView({ context, respond, disabled, answered }: QuestionProps<ApprovalQuestion, ApprovalAnswer>) {
  return <ToolApproval question={context} onRespond={respond} disabled={disabled} {...(answered ? { response: answered } : {})} />
}

/**
 * A call of an external tool waiting for the person: which server, which tool, what it says it
 * does, and each argument it would be called with, readable. Allow once, Allow for this chat
 * (every call of this tool of this server in this chat), or Deny.
 */
export function ToolApproval({
  question,
  onRespond,
  disabled,
  response,
  broaderScope = 'Allow for this chat',
  asker,
}: {
  question: ApprovalQuestion
  onRespond: (answer: ElicitAnswer<ApprovalAnswer>) => void
  disabled: boolean
  response?: ElicitAnswer<ApprovalAnswer>
  /** The label of the broader allowance (`scope: 'chat'`): an MCP App's calls are allowed while it is open. */
  broaderScope?: string
  /** Who asks for the call, when it is not the model (an MCP App). */
  asker?: string
}) {
  const { server, tool, title, description, destructive } = question
  const entries = Object.entries(question.arguments)
  return (
    <QuestionPanel
      label={`Approve ${tool} on ${server}`}
      tone="amber"
      icon={<AlertIcon className="h-4 w-4" />}
      title={
        <>
          Allow <span className="font-mono">{server}</span> to run <span className="break-all font-mono">{tool}</span>?
        </>
      }
      prompt={[asker, title && title !== tool ? title : undefined].filter(Boolean).join(' · ') || undefined}
    >
      {description ? <p className="mt-3 whitespace-pre-wrap break-words text-sm text-zinc-700 dark:text-zinc-300">{description}</p> : null}
      {destructive ? (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200">
          <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{server} marks this tool as destructive: it may delete or overwrite things.</span>
        </p>
      ) : null}
      <section aria-label="Arguments" className="mt-3">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Arguments</h4>
        {entries.length === 0 ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">None.</p>
        ) : (
          <dl className="mt-1 space-y-2 text-sm">
            {entries.map(([name, value]) => (
              <div key={name} className="min-w-0">
                <dt className="break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{name}</dt>
                <dd className="min-w-0 text-zinc-900 dark:text-zinc-100">
                  <ArgumentValue value={value} />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <div className="mt-4">
        {response ? (
          <AnswerSummary answer={response} accepted={response.action === 'accept' && response.content.scope === 'chat' ? broaderScope.replace(/^Allow/, 'Allowed') : 'Allowed once'} declined="Denied" />
        ) : (
          // Stacked on a phone, the first choice on top; in a row on wider screens, the first choice last.
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'decline' })}>
              Deny
            </QuietButton>
            <button type="button" disabled={disabled} className={SECOND_BUTTON} onClick={() => onRespond({ action: 'accept', content: { scope: 'chat' } })}>
              {broaderScope}
            </button>
            <button type="button" disabled={disabled} className={ANSWER_BUTTON} onClick={() => onRespond({ action: 'accept', content: { scope: 'once' } })}>
              Allow once
            </button>
          </div>
        )}
      </div>
    </QuestionPanel>
  )
}

/**
 * One argument, as the server will get it: text as text (a long one in a scrolling block),
 * numbers and flags as they are, lists and objects as nested fields under their own names.
 */
function ArgumentValue({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    if (value === '') return <span className="text-zinc-500">(empty)</span>
    if (value.length > LONG_TEXT || value.includes('\n')) {
      return <pre className="mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 px-2 py-1.5 font-mono text-xs dark:bg-zinc-950">{value}</pre>
    }
    return <span className="break-words">{value}</span>
  }
  if (value === null || typeof value !== 'object') return <span className="font-mono">{String(value)}</span>
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-zinc-500">(none)</span>
    if (value.every((item) => item === null || typeof item !== 'object')) return <span className="break-words">{value.map((item) => (typeof item === 'string' ? item : String(item))).join(', ')}</span>
    return (
      <ol className="mt-0.5 space-y-1 border-l-2 border-zinc-200 pl-2 dark:border-zinc-700">
        {value.map((item, index) => (
          <li key={index}>
            <ArgumentValue value={item} />
          </li>
        ))}
      </ol>
    )
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return <span className="text-zinc-500">(empty)</span>
  return (
    <dl className="mt-0.5 space-y-1 border-l-2 border-zinc-200 pl-2 dark:border-zinc-700">
      {entries.map(([name, item]) => (
        <div key={name} className="min-w-0">
          <dt className="break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{name}</dt>
          <dd className="min-w-0">
            <ArgumentValue value={item} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
