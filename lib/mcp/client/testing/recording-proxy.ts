import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>` followed by the path asked for. */
  origin: string
  /** Every request passed on so far: its method and headers as they arrived, and its body once it has all arrived. */
  requests: Array<{ method: string; headers: IncomingHttpHeaders; body?: string }>
  close(): Promise<void>
}

/**
 * A plain HTTP proxy on 127.0.0.1 in front of `target`: it notes each request's headers and
 * body and passes the request on, streaming both ways (Streamable HTTP answers with event streams).
 * For seeing what a client really sends to a server that does not show it.
 */
export async function startRecordingProxy({ target }: { target: string }): Promise<RecordingProxy> {
  const upstream = new URL(target)
  const requests: RecordingProxy['requests'] = []
  const server = createServer((incoming, outgoing) => {
    const noted: RecordingProxy['requests'][number] = { method: incoming.method ?? '', headers: incoming.headers }
    requests.push(noted)
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => (noted.body = Buffer.concat(chunks).toString('utf8')))
    const forwarded = request(
      { hostname: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: upstream.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    forwarded.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end(error.message)
      else outgoing.destroy()
    })
    // A client that goes away (a stream it closes) ends the request upstream too.
    outgoing.on('close', () => forwarded.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
