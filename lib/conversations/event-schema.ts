import { z } from 'zod'
import type { ChatEvent } from '../protocol/events'
import { messageSchema } from '../protocol/messages'
import { questionSchema } from '../protocol/question'

/*
 * The NDJSON events of lib/protocol/events.ts as a schema, to check a chat that comes from
 * outside (an import) before it is stored and replayed in a browser. Strings are bounded so that
 * no one field can be most of a chat; the chat's own limits bound the whole. A question is the
 * protocol's own schema (`questionSchema`), the one its type is read from.
 */

const id = z.string().min(1).max(500)
const text = z.string().max(200_000)
const issues = z.array(z.object({ path: z.string().max(1_000), message: z.string().max(2_000) })).max(100)

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
  questionSchema.extend({ type: z.literal('plugin_elicit_request') }),
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
