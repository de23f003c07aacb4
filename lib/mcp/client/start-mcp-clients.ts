import { createScope, suspend } from 'effection'
import { useMcpClients, type McpClients, type UseMcpClientsOptions } from './use-mcp-clients'

/** `useMcpClients` in a scope of its own, for code outside Effection: the app's composition root, tests. */
export async function startMcpClients(options: UseMcpClientsOptions): Promise<{ clients: McpClients; close(): Promise<void> }> {
  const [scope, destroy] = createScope()
  const clients = await new Promise<McpClients>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* useMcpClients(options))
        yield* suspend()
      })
      .catch(reject)
  })
  return { clients, close: () => destroy() }
}
