import { serverMetrics } from '../telemetry'
import { getBudgets } from './budget-instance'
import { getChatApp } from './chat-server-instance'
import { getMcpClients } from './mcp-clients-instance'
import type { OperatorSources } from './read-operator-view'

/** The app's operator view's sources, and how to end a waiting call (the sessions announce it to the pages that follow it): the chat server's, the MCP clients', the metrics' tally, the budgets'. */
export interface OperatorApp extends OperatorSources {
  endWaiting(options: { clientId: string; callId: string; reason: string }): Promise<boolean>
}

export async function getOperatorApp(): Promise<OperatorApp> {
  const [{ chat, instance }, clients, { budget, run }] = await Promise.all([getChatApp(), getMcpClients(), getBudgets()])
  return {
    instance,
    listWaiting: () => chat.listWaiting(),
    // The page that shows the question (on any instance) learns it now: the sessions announce the stop (GET /api/chats/:id/waiting).
    endWaiting: (options) => chat.endWaiting(options),
    servers: () => clients.servers(),
    refusals: serverMetrics().refusals,
    usage: budget && (() => run(() => budget.usage())),
  }
}
