import { z } from 'zod'
import '../plugins/zod-without-eval'
import { messageSchema } from '../protocol/messages'
import { elicitAnswerSchema } from '../protocol/elicit-answer'
import { toPluginElicitRequest } from '../plugins/elicit-request'
import type { ChatState } from './chat-state'

/*
 * What a stored chat must be to be restored. Zod is most of the chat's JavaScript, and only a
 * page with a chat to restore needs it: persistence.ts loads this module then, as its own chunk.
 */

const logLevelSchema = z.enum(['debug', 'info', 'warning', 'error'])

const choicesSchema = z.record(z.string(), z.array(z.object({ value: z.string(), title: z.string() })))
const choiceAnswersSchema = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())))

const questionSchema = z.object({
  id: z.object({ toolName: z.string(), key: z.string(), callId: z.string(), seq: z.number().int().nonnegative() }),
  elicitId: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  key: z.string(),
  callId: z.string(),
  seq: z.number().int().nonnegative(),
  message: z.string(),
  schema: z.record(z.string(), z.unknown()),
  context: z.record(z.string(), z.unknown()),
  choices: choicesSchema,
  fieldTitles: z.record(z.string(), z.string()),
  choiceAnswers: choiceAnswersSchema,
  defaults: z.record(z.string(), z.unknown()),
})

/** What became of a question in this chat, in both stored shapes. */
const progress = {
  attempt: z.number().int().positive(),
  status: z.enum(['waiting', 'answered', 'submitted', 'stopped', 'closed']),
  answers: z.array(z.unknown()),
  result: elicitAnswerSchema.optional(),
  rejection: z
    .object({ message: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() })
    .optional(),
  error: z.string().optional(),
}

/**
 * A question as chats stored it before it was read once on arrival: the event's fields beside
 * its progress, the message still carrying its encoded context. Read as its event is, into the
 * shape of today (`toPluginElicitRequest`), so a chat stored then is restored, not dropped.
 */
const earlierElicitationSchema = z
  .object({
    sessionId: z.string(),
    callId: z.string(),
    elicitId: z.string(),
    toolName: z.string(),
    key: z.string(),
    message: z.string(),
    schema: z.record(z.string(), z.unknown()),
    choices: choicesSchema.optional(),
    fieldTitles: z.record(z.string(), z.string()).optional(),
    choiceAnswers: choiceAnswersSchema.optional(),
    defaults: z.record(z.string(), z.unknown()).optional(),
    ...progress,
  })
  .transform(({ attempt, status, answers, result, rejection, error, ...event }) => ({
    question: toPluginElicitRequest(event),
    attempt,
    status,
    answers,
    ...(result ? { result } : {}),
    ...(rejection ? { rejection } : {}),
    ...(error !== undefined ? { error } : {}),
  }))

const elicitationSchema = z.union([z.object({ question: questionSchema, ...progress }), earlierElicitationSchema])

const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), streaming: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    title: z.string().optional(),
    status: z.enum(['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'stopped']),
    progress: z.object({ message: z.string(), value: z.number().min(0).max(1).optional() }).optional(),
    logs: z.array(z.object({ level: logLevelSchema, message: z.string() })),
    elicitations: z.array(elicitationSchema),
    // Optional: a result that is plain text has no value (Zod 4 requires an unknown key unless told otherwise).
    result: z.object({ text: z.string(), value: z.unknown().optional() }).optional(),
    external: z.object({ server: z.string(), tool: z.string(), uiResourceUri: z.string().optional() }).optional(),
    error: z.string().optional(),
  }),
])

export const chatStateSchema = z.object({
  messages: z.array(messageSchema),
  entries: z.array(entrySchema),
  status: z.enum(['idle', 'streaming', 'awaiting_input', 'error']),
  error: z.string().optional(),
  turn: z
    .object({
      kind: z.enum(['message', 'responses', 'abort']),
      text: z.string(),
      textReceived: z.boolean(),
      receivedState: z.boolean(),
      elicitIds: z.array(z.string()),
    })
    .optional(),
})

// The schema and the state type must not drift apart.
const checkSchemaMatchesState: (value: z.output<typeof chatStateSchema>) => ChatState = (value) => value
void checkSchemaMatchesState


/** A stored chat, parsed from its JSON and checked; undefined when it is not one. */
export function parseStoredChat(text: string): ChatState | undefined {
  try {
    const parsed = chatStateSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    // Not JSON.
    return undefined
  }
}
