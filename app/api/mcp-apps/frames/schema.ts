import { z } from 'zod'

/** `POST /api/mcp-apps/frames`: open the app of a tool, by the server's `mcp.json` key and the tool's own name. */
export const openAppSchema = z.strictObject({
  server: z.string().min(1).max(200),
  tool: z.string().min(1).max(200),
})
