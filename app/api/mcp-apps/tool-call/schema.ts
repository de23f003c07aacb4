import { z } from 'zod'

/** `POST /api/mcp-apps/tool-call`: a `tools/call` an app made, carried by the chat page. */
export const appToolCallSchema = z.strictObject({
  bridgeTicket: z.string().min(1).max(4_000),
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** The person approved this call in the app's card (asked when the first try answered `428 approval_required`). */
  approved: z.boolean().optional(),
})
