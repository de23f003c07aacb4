import { z } from 'zod'
import type { ChatEvent } from '../protocol/events'
import { messageSchema } from '../protocol/messages'
import type { FormProperty } from '../protocol/question-form'

/*
 * The NDJSON events of lib/protocol/events.ts as a schema, to check a chat that comes from
 * outside (an import) before it is stored and replayed in a browser. Strings are bounded so that
 * no one field can be most of a chat; the chat's own limits bound the whole.
 */

const id = z.string().min(1).max(500)
const text = z.string().max(200_000)
const issues = z.array(z.object({ path: z.string().max(1_000), message: z.string().max(2_000) })).max(100)
const choices = z.record(z.string(), z.array(z.object({ value: z.string(), title: z.string() })))
// A question's form is read again where it is shown (parseFlatForm), which refuses a property it cannot draw.
const form = z.object({
  type: z.literal('object'),
  properties: z.record(z.string(), z.custom<FormProperty>((value) => typeof value === 'object' && value !== null && !Array.isArray(value))),
  required: z.array(z.string()).optional(),
})

export const chatEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), content: text }),
  z.object({
    type: z.literal('tool_calls'),
    calls: z
      .array(
        z.object({
          id,
          name: id,
          arguments: z.unknown(),
          title: z.string().max(500).optional(),
          external: z.object({ server: id, tool: id, uiResourceUri: z.string().max(2_000).optional() }).optional(),
        }),
      )
      .max(32),
  }),
  z.object({ type: z.literal('tool_result'), id, name: id, content: text }),
  z.object({ type: z.literal('tool_error'), id, name: id, message: text }),
  z.object({
    type: z.literal('plugin_elicit_request'),
    sessionId: id,
    callId: id,
    toolName: id,
    elicitId: id,
    key: id,
    message: text,
    schema: z.record(z.string(), z.unknown()),
    choices: choices.optional(),
    fieldTitles: z.record(z.string(), z.string()).optional(),
    choiceAnswers: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))).optional(),
    defaults: z.record(z.string(), z.unknown()).optional(),
    form: form.optional(),
  }),
  z.object({ type: z.literal('plugin_elicit_rejected'), sessionId: id, elicitId: id, message: text, issues: issues.optional() }),
  z.object({ type: z.literal('plugin_progress'), sessionId: id, callId: id, message: text, progress: z.number().optional() }),
  z.object({ type: z.literal('plugin_log'), sessionId: id, callId: id, level: z.enum(['debug', 'info', 'warning', 'error']), message: text }),
  z.object({
    type: z.literal('plugin_session_error'),
    sessionId: id,
    callId: id,
    error: z.enum(['SESSION_NOT_FOUND', 'SESSION_ABORTED', 'INTERNAL_ERROR']),
    message: text,
  }),
  z.object({ type: z.literal('conversation_state'), messages: z.array(messageSchema).max(1_000) }),
  z.object({
    type: z.literal('complete'),
    text,
    usage: z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional() }).optional(),
  }),
  z.object({ type: z.literal('error'), message: text, code: z.string().max(100) }),
]) satisfies z.ZodType<ChatEvent>
