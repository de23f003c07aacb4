import { toChatFailure, type ClientIdentity } from '@/lib/http'
import { waitForStatusChange } from '@/lib/mcp/client/server-status'
import { getChatApp } from '@/lib/server/chat-server-instance'
import { getMcpClients } from '@/lib/server/mcp-clients-instance'

export const dynamic = 'force-dynamic'

/**
 * Every tool the chat can use now: the app's own (`source: "plugin"`) and those of external MCP
 * servers that are up (`<server>__<tool>`, `source: "mcp:<server>"`), with each server's status.
 * With sign-in configured, only the servers (and their tools) that are the person's: the ones
 * whose `mcp.json` entry's `users` names them, a URL server without `users`, every one for an admin.
 * Answers at once, whatever the servers are doing; with `?after=<statuses>` (`serverStatusKey`
 * of the list the browser has), it first waits while those are still the statuses, at most 25 s:
 * how the chat hears that a server still starting is ready.
 */
export async function GET(request: Request): Promise<Response> {
  const [{ chat, identity, toolAudience }, clients] = await Promise.all([getChatApp(), getMcpClients()])
  let client: ClientIdentity
  try {
    // With sign-in configured, an unsigned request is refused (401 sign_in_required).
    client = await identity.identify(request)
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse()
    throw error
  }
  const after = new URL(request.url).searchParams.get('after')
  // A server each person connects to is listed with this person's status; one not theirs is not listed.
  const serversFor = async () => (await clients.serversFor(client.clientId)).filter((server) => toolAudience.admits(server.name, client.person))
  let servers = await serversFor()
  if (after !== null) {
    await waitForStatusChange({ clients, after: after.slice(0, 4_000), signal: request.signal, current: servers })
    servers = await serversFor()
  }
  return Response.json({ tools: chat.listTools({ clientId: client.clientId, person: client.person }), servers })
}
