import type { ElicitAnswer } from '../../../protocol/elicit-answer'
import { QUESTION_META_KEY, formContentFor, type FormSchema, type QuestionMeta } from '../../../protocol/question-form'
import { BridgeError } from './host-bridge'

/** A form `elicitation/create` the host forwarded to this app (SEP-3118), as the app reads it. */
export interface ForwardedQuestion {
  message: string
  schema: FormSchema
  meta: QuestionMeta
}

/** What the app answers the host with: a standard `ElicitResult`, its content in the form's shape. */
export type FormResult = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' }

const INVALID_PARAMS = -32602

/**
 * The forwarded request's parts, or a `BridgeError` when this app cannot show it: not a form,
 * no schema, or not this app's question (its `_meta` names another tool or key, or carries no
 * context). The host shows its native form instead, as SEP-3118 has it for an app that fails.
 */
export function readForwardedQuestion(params: Record<string, unknown>, expected: { tool: string; key: string }): ForwardedQuestion {
  if (params.mode !== undefined && params.mode !== 'form') throw new BridgeError(INVALID_PARAMS, `Only form elicitations are shown by an app, not mode ${String(params.mode)}.`)
  const schema = params.requestedSchema as FormSchema | undefined
  if (typeof schema !== 'object' || schema === null || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new BridgeError(INVALID_PARAMS, 'The elicitation has no requestedSchema with properties.')
  }
  const meta = (params._meta as Record<string, unknown> | undefined)?.[QUESTION_META_KEY] as QuestionMeta | undefined
  if (typeof meta !== 'object' || meta === null || meta.tool !== expected.tool || meta.key !== expected.key || typeof meta.context !== 'object' || meta.context === null) {
    throw new BridgeError(INVALID_PARAMS, `This app shows ${expected.tool}'s ${expected.key} question; the elicitation's _meta["${QUESTION_META_KEY}"] names another, or no context.`)
  }
  return { message: typeof params.message === 'string' ? params.message : '', schema, meta }
}

/** The component's answer (the tool's shape) as the form's result, so the host's check against `requestedSchema` passes. */
export function formResultOf(answer: ElicitAnswer<Record<string, unknown>>, question: ForwardedQuestion): FormResult {
  if (answer.action !== 'accept') return { action: answer.action }
  return { action: 'accept', content: formContentFor(answer.content, question.schema, question.meta.answers) }
}
