import { z } from 'zod'
import { messageSchema } from './messages'

export const elicitResultSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.unknown() }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
])

export const pluginElicitResponseSchema = z.object({
  sessionId: z.string().min(1).max(200),
  callId: z.string().min(1).max(200),
  elicitId: z.string().min(1).max(500),
  result: elicitResultSchema,
})

export const pluginAbortSchema = z.object({
  sessionId: z.string().min(1).max(200),
  reason: z.string().max(1_000).optional(),
})

/** The body of `POST /api/chat`. */
export const chatRequestSchema = z.object({
  messages: z.array(messageSchema).max(1_000),
  pluginElicitResponses: z.array(pluginElicitResponseSchema).max(32).optional(),
  pluginAbort: pluginAbortSchema.optional(),
})

export type ChatRequest = z.infer<typeof chatRequestSchema>
export type PluginElicitResponse = z.infer<typeof pluginElicitResponseSchema>
export type PluginAbort = z.infer<typeof pluginAbortSchema>
