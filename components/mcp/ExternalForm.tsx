'use client'

import { useMemo } from 'react'
import type { ElicitAnswer } from '@/lib/protocol'
import { parseFlatForm } from '@/lib/mcp/client/flat-form'
import { Form, QuestionPanel } from '../kit'
import { AnswerButtons, AnswerSummary } from './answer-parts'

type Values = Record<string, unknown>

/**
 * An external server's form (MCP form mode), made from its flat JSON Schema: the kit's `Form`,
 * a labelled field per property, defaults filled in, required ones marked and checked before
 * anything is sent (with the same schema the server checks the answer against). Accept,
 * Decline or Cancel.
 */
export function ExternalForm({
  message,
  server,
  requestedSchema,
  onRespond,
  disabled,
  response,
}: {
  message: string
  server: string
  requestedSchema: Record<string, unknown>
  onRespond: (answer: ElicitAnswer<Values>) => void
  disabled: boolean
  response?: ElicitAnswer<Values>
}) {
  const fields = useMemo(() => parseFlatForm(requestedSchema), [requestedSchema])
  return (
    <QuestionPanel label={`Form from ${server}`} title={`${server} asks`} prompt={<span className="whitespace-pre-wrap">{message}</span>}>
      <Form
        fields={fields}
        disabled={disabled}
        {...(response?.action === 'accept' ? { answer: response.content } : {})}
        onSubmit={(content) => onRespond({ action: 'accept', content })}
      >
        {response ? <AnswerSummary answer={response} /> : <AnswerButtons disabled={disabled} onRespond={onRespond} />}
      </Form>
    </QuestionPanel>
  )
}
