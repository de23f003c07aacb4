'use client'

import type { ElicitAnswer } from '@/lib/protocol'
import type { SamplingQuestion } from '@/lib/mcp/client/external-questions'
import { QuestionPanel } from '../kit'
import { QuietButton } from '../QuietButton'
import { AnswerSummary, ANSWER_BUTTON } from './answer-parts'

/**
 * An external server asks the chat's model something: what it asks and within which limits,
 * for the user to Approve (the chat's model answers, and the answer goes to the server) or Deny.
 */
export function SamplingApproval({
  question,
  onRespond,
  disabled,
  response,
}: {
  question: SamplingQuestion
  onRespond: (answer: ElicitAnswer<Record<string, never>>) => void
  disabled: boolean
  response?: ElicitAnswer<unknown>
}) {
  const limits = [
    `at most ${question.maxTokens} tokens`,
    question.temperature !== undefined ? `temperature ${question.temperature}` : undefined,
    question.stopSequences?.length ? `stops at ${question.stopSequences.map((stop) => JSON.stringify(stop)).join(', ')}` : undefined,
  ].filter(Boolean)
  return (
    <QuestionPanel label={`Sampling request from ${question.server}`} tone="violet" title={`${question.server} wants to ask the chat's model`} prompt="Approve this sampling request?">
      <dl className="mt-3 space-y-2 text-sm">
        {question.systemPrompt ? (
          <div>
            <dt className="font-medium text-zinc-800 dark:text-zinc-200">System prompt</dt>
            <dd className="whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{question.systemPrompt}</dd>
          </div>
        ) : null}
        <div>
          <dt className="font-medium text-zinc-800 dark:text-zinc-200">Messages</dt>
          <dd>
            <ol className="space-y-1">
              {question.messages.map((message, index) => (
                <li key={index} className="whitespace-pre-wrap rounded-md bg-zinc-50 px-2 py-1 text-zinc-700 dark:bg-zinc-950 dark:text-zinc-300">
                  <span className="font-medium">{message.role}:</span> {message.text}
                </li>
              ))}
            </ol>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-zinc-800 dark:text-zinc-200">Limits</dt>
          <dd className="text-zinc-700 dark:text-zinc-300">{limits.join(' · ')}</dd>
        </div>
      </dl>
      <div className="mt-3 flex justify-end gap-2">
        {response ? (
          <AnswerSummary answer={response} accepted="Approved" declined="Denied" />
        ) : (
          <>
            <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'decline' })}>
              Deny
            </QuietButton>
            <button type="button" disabled={disabled} className={ANSWER_BUTTON} onClick={() => onRespond({ action: 'accept', content: {} })}>
              Approve
            </button>
          </>
        )}
      </div>
    </QuestionPanel>
  )
}
