import { createOfflineModel } from '../../../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from '../mcp-endpoint'
import { serveFetch } from './serve-fetch'

/** One instance of the endpoint on a port of its own, and what reached it. */
export interface PooledInstance {
  name: string
  url: URL
  endpoint: McpEndpoint
  /** What each request that reached it was: `POST tools/call`, `POST response`, `GET`, `DELETE`… in order. */
  served: string[]
  /** Its port closes (every connection cut, as when its process dies), then the endpoint. */
  stop(): Promise<void>
}

/**
 * Several instances of the endpoint, as behind a load balancer: `fetch` is what a test gives the
 * official clients (their transports' `fetch` option): it sends each request to the next live
 * instance in turn (plain round-robin, nothing sticky), by rewriting the URL's origin. It is the
 * test's load balancer, not a mock: every request is real HTTP to a real endpoint.
 */
export function endpointPool(defaults: Partial<McpEndpointOptions> & Pick<McpEndpointOptions, 'stateSecret'>) {
  const live: PooledInstance[] = []
  let turn = 0
  let started = 0

  async function start(options: Partial<McpEndpointOptions> = {}): Promise<PooledInstance> {
    const endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), ...defaults, ...options })
    const port = await serveFetch((request) => endpoint.handle(request))
    const instance: PooledInstance = {
      name: `instance ${++started}`,
      url: port.url,
      endpoint,
      served: [],
      async stop() {
        const index = live.indexOf(instance)
        if (index >= 0) live.splice(index, 1)
        await port.close()
        await endpoint.close()
      },
    }
    live.push(instance)
    return instance
  }

  const fetchNext: typeof fetch = async (input, init) => {
    if (live.length === 0) throw new Error('no instance is running')
    const instance = live[turn++ % live.length]!
    instance.served.push(describe(init))
    const url = new URL(input instanceof Request ? input.url : String(input))
    const target = new URL(url.pathname + url.search, instance.url)
    return fetch(target, init)
  }

  return {
    start,
    fetch: fetchNext,
    /** The instances running, in the order they take requests. */
    live: () => [...live],
    /** The URL clients are given (any instance's: `fetch` picks the instance). */
    url: () => live[0]!.url,
    async stopAll(): Promise<void> {
      for (const instance of [...live]) await instance.stop()
    },
  }
}

function describe(init: RequestInit | undefined): string {
  const method = init?.method ?? 'GET'
  if (typeof init?.body !== 'string') return method
  try {
    const message = JSON.parse(init.body) as { method?: string }
    return `${method} ${message.method ?? 'response'}`
  } catch {
    return method
  }
}
