import { serverMetrics } from '../telemetry'
import { getBudgets } from './budget-instance'
import { getChatCalls } from './chat-calls-instance'
import { getChatApp } from './chat-server-instance'
import { getMcpClients } from './mcp-clients-instance'
import type { OperatorSources } from './read-operator-view'

/** The app's operator view's sources, and how to end a waiting call (announced to the pages that follow it): the chat server's, the MCP clients', the metrics' tally, the budgets'. */
export interface OperatorApp extends OperatorSources {
  endWaiting(options: { clientId: string; callId: string; reason: string }): Promise<boolean>
}

export async function getOperatorApp(): Promise<OperatorApp> {
  const [{ chat, instance }, clients, { budget, run }, { announce }] = await Promise.all([getChatApp(), getMcpClients(), getBudgets(), getChatCalls()])
  return {
    instance,
    listWaiting: () => chat.listWaiting(),
    endWaiting: async (options) => {
      const ended = await chat.endWaiting(options)
      // The page that shows the question (on any instance) learns it now: GET /api/chats/:id/waiting.
      // The call has ended either way: if the word cannot be passed (Redis down), pages read it when they next load the chat.
      if (ended) await announce(options.clientId, options.callId).catch((error: unknown) => console.warn(`An ended call could not be announced: ${error instanceof Error ? error.message : String(error)}`))
      return ended
    },
    servers: () => clients.servers(),
    refusals: serverMetrics().refusals,
    usage: budget && (() => run(() => budget.usage())),
  }
}
