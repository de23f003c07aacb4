import type { z } from 'zod'
import { questionFormOf, responseSchemaOf, type ElicitSpec } from '../tools/elicits'
import type { QuestionForm } from '../tools/question-form'
import type { ElicitAnswer, ElicitId } from '../tools/types'
import { parseElicitId } from '../tools/elicit-id'
import { encodeModelContext, type ModelContext } from '../tools/model-context'
import { describeIssues, toIssues, toJsonSchema, type ValidationIssue } from './json-schema'

/** What checking an answer against the question it answers found. */
export type AnswerCheck =
  | { ok: true; answer: ElicitAnswer<unknown> }
  | { ok: false; code: 'invalid_response'; message: string; issues: ValidationIssue[] }
  | { ok: false; code: 'elicit_already_answered' | 'elicit_mismatch'; message: string }

/**
 * One question a tool asks, and the one place its answers are checked. Only the parts are
 * kept while the tool waits (the context is the tool's own objects); the wire forms are built
 * when read, so a waiting session does not hold a second, encoded copy of its context.
 */
export class BridgeElicitRequest {
  private readonly responseSchema: z.ZodType
  private questionForm: QuestionForm | undefined

  constructor(
    readonly elicitId: string,
    readonly id: ElicitId,
    /** The message for people, without the encoded context. */
    readonly text: string,
    readonly context: ModelContext,
    /** The tool's declaration of this question's key. */
    private readonly spec: ElicitSpec,
  ) {
    this.responseSchema = responseSchemaOf(spec, context)
  }

  /** The question as a native form (built when first read): its schema, choices, and how its answers become the tool's. */
  get form(): QuestionForm {
    this.questionForm ??= questionFormOf(this.spec, this.context)
    return this.questionForm
  }

  get key(): string {
    return this.id.key
  }

  /** The message with the x-model-context section appended. */
  get message(): string {
    return encodeModelContext({ message: this.text, schema: {}, context: this.context }).message
  }

  /** The response's JSON Schema, with `x-model-context`. */
  get schema(): Record<string, unknown> {
    return encodeModelContext({ message: '', schema: toJsonSchema(this.responseSchema), context: this.context }).schema
  }

  /**
   * An answer's content checked against the key's schema: what the tool receives (parsed:
   * defaults applied), or what is wrong with it. Decline and cancel carry nothing to check.
   */
  validate(answer: ElicitAnswer<unknown>): Extract<AnswerCheck, { ok: true } | { code: 'invalid_response' }> {
    if (answer.action !== 'accept') return { ok: true, answer: { action: answer.action } }
    const parsed = this.responseSchema.safeParse(answer.content)
    if (parsed.success) return { ok: true, answer: { action: 'accept', content: parsed.data } }
    const issues = toIssues(parsed.error)
    return { ok: false, code: 'invalid_response', message: `answer to '${this.key}' is not valid: ${describeIssues(issues)}`, issues }
  }

  /** An answer as it arrives from a client, naming the question it answers. */
  check(elicitId: string, answer: ElicitAnswer<unknown>): AnswerCheck {
    if (elicitId !== this.elicitId) {
      const named = parseElicitId(elicitId)
      return named && named.callId === this.id.callId && named.seq < this.id.seq
        ? { ok: false, code: 'elicit_already_answered', message: `Elicitation ${elicitId} was already answered.` }
        : {
            ok: false,
            code: 'elicit_mismatch',
            message: `Elicitation ${elicitId} is not the one tool call ${this.id.callId} waits for (${this.elicitId}).`,
          }
    }
    const checked = this.validate(answer)
    return checked.ok ? checked : { ...checked, message: `The ${checked.message}` }
  }
}
