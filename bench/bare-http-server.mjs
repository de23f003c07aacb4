// The cheapest HTTP server Node can run: what `GET /api/health` answers ({"ok":true} as JSON),
// with nothing else. The bench measures it with the same client as Next's trivial route, in the
// same run, so that every CPU figure can also be read as a multiple of it — a unit that holds
// across machines where milliseconds do not. Its own process so that its CPU is read apart.
import { createServer } from 'node:http'

const body = JSON.stringify({ ok: true })
const server = createServer((request, response) => {
  // Drain whatever was sent, as any server must, then answer like the health route.
  request.resume()
  request.once('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  })
})
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'))
process.once('SIGTERM', () => server.close(() => process.exit(0)))
