import type { CallToolResult } from '@modelcontextprotocol/client'
import { until, type Operation } from 'effection'
import { EXTERNAL_QUESTION } from '../external-questions'
import type { ExternalToolContext } from '../question-specs'
import type { McpServerConnection } from '../server-connection'
import type { McpClients } from '../use-mcp-clients'

/** How many times a call asks the person to connect before it gives up. */
export const MAX_CONNECT_ROUNDS = 3

/**
 * Before a call of a server that asks each person to connect: the person's own connection, ready;
 * or, while they have none (never connected, disconnected, their token refused), the question
 * "Connect X to go on" in the call's card, asked again after each Go on that did not connect.
 * Each look at the connection is a journaled step, so the call replays the same way after a
 * reload or a restart (nothing has reached the server yet); declining is the result the model
 * reads. Resolves with undefined when the call may go on, or the declining result.
 */
export function* connectFirst({ server, tool, person, clients, ctx }: { server: string; tool: string; person: string; clients: McpClients; ctx: ExternalToolContext }): Operation<CallToolResult | undefined> {
  for (let round = 0; ; round++) {
    const ready = yield* ctx.step(`is ${server} connected`, function* () {
      return (yield* settled(clients, server, person))?.status === 'ready'
    })
    if (ready) return undefined
    if (round === MAX_CONNECT_ROUNDS) {
      return { content: [{ type: 'text', text: `${server} is still not connected after ${MAX_CONNECT_ROUNDS} tries; ${tool} was not called.` }], isError: true }
    }
    const kind = clients.personalServer(server)?.userVariables ? 'variables' : 'oauth'
    const answer = yield* ctx.elicit(EXTERNAL_QUESTION.connect, { message: `Connect ${server} to go on.`, server, kind })
    if (answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `The person did not connect ${server}, which ${tool} needs; ${tool} was not called.` }], isError: true }
    }
  }
}

/** The person's connection once it is no longer starting (started first, if they have connected). */
function* settled(clients: McpClients, server: string, person: string): Operation<McpServerConnection | undefined> {
  const connection = yield* until(clients.personalConnection(server, person))
  if (!connection) return undefined
  while (connection.status === 'starting') {
    yield* until(new Promise<void>((resolve) => {
      const stop = connection.watch(() => {
        stop()
        resolve()
      })
    }))
  }
  return connection
}
