import type { AccessApp } from '../mcp/client/personal/handle-access-request'
import { getChatApp } from './chat-server-instance'
import { getMcpClients, getPersonalAccess, getToolAudience } from './mcp-clients-instance'

/** What the routes under `app/api/mcp-oauth` answer with: who is asking, the servers, each person's credentials. */
export async function getAccessApp(): Promise<AccessApp> {
  const [{ identity }, clients, personal, audience] = await Promise.all([getChatApp(), getMcpClients(), getPersonalAccess(), getToolAudience()])
  return { identity, clients, personal, audience }
}
