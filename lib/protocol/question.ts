import { z } from 'zod'
import type { FormProperty } from './question-form'

const id = z.string().min(1).max(500)
const json = z.record(z.string(), z.unknown())

/**
 * A question as it travels, from the tool that asks it to the browser that shows it: the one
 * definition, its type (`Question`) read off it. The `plugin_elicit_request` event is this with
 * its `type`; a session record keeps its own part of it (`asked`); a chat kept on the server
 * keeps the event; an import is checked by it. Its strings are bounded so that no one field can
 * be most of an imported chat.
 *
 * The context is a field of its own, the value the tool passed to `ctx.elicit`, checked once
 * against the key's declaration where it is asked; nothing encodes it into the message or the
 * schema, and nothing decodes it on the way.
 */
export const questionSchema = z.object({
  /** The same string as `callId`: the tool call's session. */
  sessionId: id,
  callId: id,
  toolName: id,
  /** `<tool>/<key>/<call id, URI-encoded>/<n>`: what an answer names, sent back exactly as received. */
  elicitId: id,
  /** The question's name in the tool's `.elicits()`. */
  key: id,
  /** The question for people (a rejected answer's reason leads it). */
  message: z.string().max(200_000),
  /** Everything the tool passed to `ctx.elicit` besides `message`, as its key's declaration checked it. */
  context: json,
  /** The JSON Schema an accepted answer's `content` must satisfy. */
  schema: json,
  /** The offered answers of the question's choice fields, by field name; absent when it has none. */
  choices: z.record(z.string(), z.array(z.object({ value: z.string(), title: z.string() }))).optional(),
  /** The title of each field of the question's form, by field name, in order: how its answer is said ("Seat"). */
  fieldTitles: z.record(z.string(), z.string()).optional(),
  /** For choice fields whose values stand for parts of the answer: those parts, by value (see `ChoiceAnswers`); absent when none do. */
  choiceAnswers: z.record(z.string(), z.record(z.string(), json)).optional(),
  /** The answer the question starts from (its `defaults`), for the person to change; absent when it declares none. */
  defaults: json.optional(),
  /**
   * The question as a native form (its `requestedSchema`): what the chat shows when no component
   * answers it. Read again where it is shown (`parseFlatForm`), which refuses a property it cannot draw.
   */
  form: z
    .object({
      type: z.literal('object'),
      properties: z.record(z.string(), z.custom<FormProperty>((value) => typeof value === 'object' && value !== null && !Array.isArray(value))),
      required: z.array(z.string()).optional(),
    })
    .optional(),
})

/**
 * A question as it travels (see `questionSchema`). Typed by its key and context where the tool is
 * known: a plugin's handler gets `Question<'pickSeat', { seatMap: SeatMap }>`.
 */
export type Question<TKey extends string = string, TContext = Record<string, unknown>> = Omit<z.infer<typeof questionSchema>, 'key' | 'context'> & {
  key: TKey
  context: TContext
}

/**
 * What a session record keeps of the question its tool waits on: the parts the key's declaration
 * cannot make again (the rest is built from them when the record is read), and `seq`, the id's
 * number, so that the id is not parsed from its text again.
 */
export const askedQuestionSchema = questionSchema.pick({ elicitId: true, key: true, message: true, context: true }).extend({
  seq: z.number().int().positive(),
})

export type AskedQuestion = z.infer<typeof askedQuestionSchema>
