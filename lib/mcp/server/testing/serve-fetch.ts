import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'

/** A fetch-shaped handler on a real HTTP port of 127.0.0.1, for tests that drive it with real clients. */
export async function serveFetch(handle: (request: Request) => Promise<Response>): Promise<{ url: URL; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const abort = new AbortController()
    outgoing.on('close', () => abort.abort())
    handle(toRequest(incoming, abort.signal))
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers))
        // An event stream may say nothing for a while: its headers go out now, not with its first event.
        outgoing.flushHeaders()
        if (!response.body) return void outgoing.end()
        for await (const chunk of Readable.fromWeb(response.body as never)) outgoing.write(chunk)
        outgoing.end()
      })
      .catch((error: unknown) => {
        if (!outgoing.headersSent) outgoing.writeHead(500)
        outgoing.end(String(error))
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/api/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item)
  }
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD'
  return new Request(`http://${incoming.headers.host ?? '127.0.0.1'}${incoming.url}`, {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream) : undefined,
    duplex: 'half',
    signal,
  } as RequestInit)
}
