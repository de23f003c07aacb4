import { createOfflineModel } from '../../../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from '../mcp-endpoint'
import { serveFetch } from './serve-fetch'

/**
 * Endpoints for one test file, each served on a port of its own: `serve` starts one (the
 * framework's fixture tool book_train and the offline model, unless `options` say otherwise)
 * and gives its URL; `closeAll` (in `afterEach`) closes every one started, its port first.
 */
export function servedEndpoints() {
  const running: Array<{ endpoint: McpEndpoint; close(): Promise<void> }> = []
  return {
    async serve(options: Partial<McpEndpointOptions> & Pick<McpEndpointOptions, 'stateSecret'>): Promise<URL> {
      const endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), ...options })
      const served = await serveFetch((request) => endpoint.handle(request))
      running.push({ endpoint, close: served.close })
      return served.url
    },
    async closeAll(): Promise<void> {
      for (const { endpoint, close } of running.splice(0)) {
        await close()
        await endpoint.close()
      }
    },
  }
}
