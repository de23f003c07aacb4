import type { McpClients } from '../use-mcp-clients'
import type { PersonalAccess, UrlServerConfig } from './personal-access'

/**
 * Disconnect: the person's tokens for `server` revoked where its authorization server offers it
 * (RFC 7009) and forgotten, with the values they entered for its `userVariables`, and their own
 * connection to it ended. Nothing is left that makes a call as them.
 */
export async function disconnectPerson({ personal, clients, person, server }: { personal: PersonalAccess; clients: McpClients; person: string; server: UrlServerConfig }): Promise<{ revoked: boolean }> {
  const { revoked } = await personal.oauth.disconnect({ person, server })
  await personal.forgetVariables(person, server.name)
  await clients.forgetPersonal(server.name, person)
  return { revoked }
}

/**
 * Signing out without keeping them: the person disconnected from every `url` and `sse` server of
 * `mcp.json`, whatever its state now (one that is down still holds their tokens; its revocation may
 * fail, and the tokens are forgotten all the same).
 */
export async function disconnectEveryServer({ personal, clients, person }: { personal: PersonalAccess | undefined; clients: McpClients; person: string }): Promise<void> {
  if (!personal) return
  for (const server of clients.urlServers()) await disconnectPerson({ personal, clients, person, server })
}
