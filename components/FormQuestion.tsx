'use client'

import { useMemo } from 'react'
import { parseFlatForm } from '@/lib/mcp/client/flat-form'
import type { FormQuestionProps } from '@/lib/plugins'
import { answerOfFormContent, formContentFor } from '@/lib/protocol/question-form'
import { Form, PrimaryButton, promptOf, QuestionPanel, QuietButton } from './kit'

/**
 * A question its plugin answers with no component of its own: the form its tool declared
 * (`question({ form })`), the same fields an MCP client shows, in the kit's look. What is sent
 * is the tool's answer (a choice that stands for part of it, as `choiceAnswers` says), so the
 * server checks it as any other. Send, or Decline.
 */
export function FormQuestion({
  message,
  form,
  choiceAnswers,
  respond,
  disabled,
  answered,
}: FormQuestionProps) {
  const fields = useMemo(() => (form ? parseFlatForm(form) : []), [form])
  const prompt = promptOf(message)
  const given = answered?.action === 'accept' && form ? formContentFor(answered.content, form, choiceAnswers) : undefined
  return (
    <QuestionPanel label={prompt} title={prompt}>
      <Form fields={fields} disabled={disabled} {...(given ? { answer: given } : {})} onSubmit={(content) => respond({ action: 'accept', content: answerOfFormContent(content, choiceAnswers) })}>
        {disabled ? null : (
          <div className="flex justify-end gap-2">
            <QuietButton onClick={() => respond({ action: 'decline' })}>Decline</QuietButton>
            <PrimaryButton type="submit">Send</PrimaryButton>
          </div>
        )}
      </Form>
    </QuestionPanel>
  )
}
