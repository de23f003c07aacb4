import type { z } from 'zod'
import { contextSchemaOf, questionFormOf, responseSchemaOf, type ElicitSpec } from '../tools/elicits'
import type { QuestionForm } from '../tools/form-fields'
import type { ElicitId, NamedElicitId } from '../protocol/elicit-id'
import { formatElicitId } from '../protocol/elicit-id'
import type { ElicitAnswer } from '../tools/types'
import type { AskedQuestion, Question } from '../protocol/question'
import { fieldTitlesOf } from '../protocol/question-form'
import { describeIssues, toIssues, toJsonSchema, type ValidationIssue } from './json-schema'

/** What checking an answer against the question it answers found. */
export type AnswerCheck =
  | { ok: true; answer: ElicitAnswer<unknown> }
  | { ok: false; code: 'invalid_response'; message: string; issues: ValidationIssue[] }
  | { ok: false; code: 'elicit_already_answered' | 'elicit_mismatch'; message: string }

/**
 * The question a tool waits on, and the one place its answers are checked. Made when the tool
 * asks (`ctx.elicit`), its context checked there, once; or from the record of a session that
 * waits (`fromRecord`). It is no shape of its own: what it sends is a `Question` (`question`, the
 * shape that travels, lib/protocol), what a record keeps is that question's `AskedQuestion` part
 * (`toRecord`).
 *
 * Only the parts are kept while the tool waits (the context is the tool's own object, carried as
 * it is, never encoded); the `Question` is built each time it is read, and the form once, when first read.
 */
export class PendingQuestion {
  private readonly responseSchema: z.ZodType
  private questionForm: QuestionForm | undefined

  private constructor(
    readonly elicitId: string,
    readonly id: ElicitId,
    /** The message for people. */
    readonly message: string,
    /** What the tool passed to `ctx.elicit` besides the message, as given (what the UI receives). */
    readonly context: Record<string, unknown>,
    /** The tool's declaration of this question's key. */
    private readonly spec: ElicitSpec,
    /** The context as the key's declared schema parsed it: what its `responseFor`, `form` and `defaults` read. */
    private readonly parsedContext: unknown,
  ) {
    this.responseSchema = responseSchemaOf(spec, parsedContext)
  }

  /**
   * A question asked with `context`, which is checked here, once, against the key's declared
   * schema; what is wrong with it when it does not fit. The question keeps the context as given
   * (what the UI receives) and the parsed one (what the key's declaration reads).
   */
  static ask(elicitId: string, id: ElicitId, message: string, context: Record<string, unknown>, spec: ElicitSpec): PendingQuestion | { issues: ValidationIssue[] } {
    const parsed = contextSchemaOf(spec)?.safeParse(context)
    if (parsed && !parsed.success) return { issues: toIssues(parsed.error) }
    return new PendingQuestion(elicitId, id, message, context, spec, parsed?.data)
  }

  /**
   * The question a session record keeps, asked again with the tool's declaration of its key: its
   * id is the record's parts (`seq`, `key`) with the session's tool and call, not its text parsed
   * again; undefined when the text is not the one those parts write, or the context does not fit.
   */
  static fromRecord(
    record: AskedQuestion,
    session: { toolName: string; callId: string },
    spec: ElicitSpec,
  ): PendingQuestion | undefined {
    const id: ElicitId = { toolName: session.toolName, key: record.key, callId: session.callId, seq: record.seq }
    if (formatElicitId(id) !== record.elicitId) return undefined
    const asked = PendingQuestion.ask(record.elicitId, id, record.message, record.context, spec)
    return asked instanceof PendingQuestion ? asked : undefined
  }

  /** What a session record keeps of this question while its tool waits. */
  toRecord(): AskedQuestion {
    return { seq: this.id.seq, key: this.id.key, elicitId: this.elicitId, message: this.message, context: this.context }
  }

  /**
   * The question as it travels (lib/protocol's `Question`): what the chat's `plugin_elicit_request`
   * carries, with the context as the tool gave it, never encoded into another field. The form's
   * parts are left out when empty.
   */
  get question(): Question {
    const { choices, answers, defaults, schema } = this.form
    return {
      sessionId: this.id.callId,
      callId: this.id.callId,
      toolName: this.id.toolName,
      elicitId: this.elicitId,
      key: this.key,
      message: this.message,
      context: this.context,
      schema: toJsonSchema(this.responseSchema),
      ...(Object.keys(choices).length > 0 ? { choices } : {}),
      fieldTitles: fieldTitlesOf(schema),
      ...(Object.keys(answers).length > 0 ? { choiceAnswers: answers } : {}),
      ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
      form: schema,
    }
  }

  /** The question as a native form (built when first read): its schema, choices, and how its answers become the tool's. */
  get form(): QuestionForm {
    this.questionForm ??= questionFormOf(this.spec, this.parsedContext)
    return this.questionForm
  }

  get key(): string {
    return this.id.key
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

  /** An answer as it arrives from a client, naming the question it answers (its id read at the edge: `readElicitId`). */
  check(named: NamedElicitId, answer: ElicitAnswer<unknown>): AnswerCheck {
    if (named.text !== this.elicitId) {
      return named.id && named.id.callId === this.id.callId && named.id.seq < this.id.seq
        ? { ok: false, code: 'elicit_already_answered', message: `Elicitation ${named.text} was already answered.` }
        : {
            ok: false,
            code: 'elicit_mismatch',
            message: `Elicitation ${named.text} is not the one tool call ${this.id.callId} waits for (${this.elicitId}).`,
          }
    }
    const checked = this.validate(answer)
    return checked.ok ? checked : { ...checked, message: `The ${checked.message}` }
  }
}
