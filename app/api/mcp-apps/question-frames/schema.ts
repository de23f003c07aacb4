import { z } from 'zod'

/** `POST /api/mcp-apps/question-frames`: open the MCP App a waiting question names, by its tool call and elicitation ids. */
export const openQuestionAppSchema = z.strictObject({
  callId: z.string().min(1).max(200),
  elicitId: z.string().min(1).max(500),
})
