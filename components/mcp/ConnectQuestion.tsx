'use client'

import { useState } from 'react'
import type { ElicitAnswer } from '@/lib/protocol'
import type { ConnectQuestion as Question } from '@/lib/mcp/client/external-questions'
import { QuestionPanel } from '../kit'
import { QuietButton } from '../QuietButton'
import { ANSWER_BUTTON, AnswerSummary } from './answer-parts'
import { startConnect } from './ServerConnect'

/**
 * "Connect X to go on": a call of a server the person has not connected. **Connect** goes to the
 * server's sign-in and comes back to this chat, where the question still waits; **Go on** runs the
 * call (asked again if the server is still not connected); **Decline** is a result the model reads.
 */
export function ConnectQuestion({
  message,
  question,
  onRespond,
  disabled,
  response,
}: {
  message: string
  question: Question
  onRespond: (answer: ElicitAnswer<Record<string, never>>) => void
  disabled: boolean
  response?: ElicitAnswer<unknown>
}) {
  const [problem, setProblem] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const connect = () => {
    setBusy(true)
    setProblem(undefined)
    startConnect(question.server).catch((error: unknown) => {
      setProblem(error instanceof Error ? error.message : String(error))
      setBusy(false)
    })
  }
  return (
    <QuestionPanel label={`Connect ${question.server}`} tone="amber" title={`Connect ${question.server} to go on`} prompt={<span>{message}</span>}>
      {response ? (
        <AnswerSummary answer={response} accepted="Went on" />
      ) : (
        <>
          {question.kind === 'variables' ? (
            <p className="mt-3 text-sm">Enter your values for {question.server} above the message box, then go on.</p>
          ) : null}
          {problem ? (
            <p role="alert" className="mt-2 text-sm text-amber-800 dark:text-amber-200">
              {problem}
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap justify-end gap-2">
            <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'decline' })}>
              Decline
            </QuietButton>
            <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'accept', content: {} })}>
              Go on
            </QuietButton>
            {question.kind === 'oauth' ? (
              <button type="button" className={ANSWER_BUTTON} disabled={disabled || busy} onClick={connect}>
                Connect {question.server}
              </button>
            ) : null}
          </div>
        </>
      )}
    </QuestionPanel>
  )
}
