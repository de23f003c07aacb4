import { getChatApp } from '@/lib/server/chat-server-instance'
import { getMcpClients } from '@/lib/server/mcp-clients-instance'

export const dynamic = 'force-dynamic'

/**
 * Every tool the chat can use now: the app's own (`source: "plugin"`) and those of external MCP
 * servers that are up (`<server>__<tool>`, `source: "mcp:<server>"`), with each server's status.
 * Answers at once, whatever the servers are doing.
 */
export async function GET(): Promise<Response> {
  const [{ chat }, clients] = await Promise.all([getChatApp(), getMcpClients()])
  return Response.json({ tools: chat.listTools(), servers: clients.servers() })
}
