import { z } from 'zod'

/** A tool call as it travels in the conversation (OpenAI chat-completions shape). */
export const toolCallSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1).max(200),
    arguments: z.string().max(100_000),
  }),
})

export const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().max(200_000).nullable(),
  tool_calls: z.array(toolCallSchema).max(32).optional(),
  tool_call_id: z.string().min(1).max(200).optional(),
  /**
   * The server's signature on an assistant or tool message it produced (HMAC-SHA256, base64url),
   * chained over every message before it: the client sends it back unchanged.
   */
  sig: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'a signature is 43 base64url characters')
    .optional(),
})

export type ToolCall = z.infer<typeof toolCallSchema>
/** One message of the conversation, exactly as the HTTP contract carries it. */
export type Message = z.infer<typeof messageSchema>
