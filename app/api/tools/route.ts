import { toChatFailure } from '@/lib/http'
import { waitForStatusChange } from '@/lib/mcp/client/server-status'
import { getChatApp } from '@/lib/server/chat-server-instance'
import { getMcpClients } from '@/lib/server/mcp-clients-instance'

export const dynamic = 'force-dynamic'

/**
 * Every tool the chat can use now: the app's own (`source: "plugin"`) and those of external MCP
 * servers that are up (`<server>__<tool>`, `source: "mcp:<server>"`), with each server's status.
 * Answers at once, whatever the servers are doing; with `?after=<statuses>` (`serverStatusKey`
 * of the list the browser has), it first waits while those are still the statuses, at most 25 s:
 * how the chat hears that a server still starting is ready.
 */
export async function GET(request: Request): Promise<Response> {
  const [{ chat, identity }, clients] = await Promise.all([getChatApp(), getMcpClients()])
  let person: string
  try {
    // With sign-in configured, an unsigned request is refused (401 sign_in_required).
    person = (await identity.identify(request)).clientId
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse()
    throw error
  }
  const after = new URL(request.url).searchParams.get('after')
  // A server each person connects to is listed with this person's status.
  let servers = await clients.serversFor(person)
  if (after !== null) {
    await waitForStatusChange({ clients, after: after.slice(0, 4_000), signal: request.signal, current: servers })
    servers = await clients.serversFor(person)
  }
  return Response.json({ tools: chat.listTools(person), servers })
}
