// `npx tsx bench/overload-costs.ts [requests]`: the production server's CPU per request of each
// kind the overload section's flood sends (junk {} admitted and refused by the contract, refused
// by the server's budget, refused by the address's own bucket), beside GET /api/health, one after
// another on an otherwise idle server (embedded store, TRUST_PROXY=1, one server per kind).
import http from 'node:http'
import { processCpuMs } from './process-cpu'
import { startServer } from './server-process'
import { serverSetups } from './server-setups'

const REQUESTS = Number(process.argv[2] ?? 2_000)
const WARM_UP = 1_000
const PORT = Number(process.env.BENCH_PORT ?? 3390)

const kinds: Array<{ name: string; env: Record<string, string>; method: string; path: string; body?: string; oneAddress?: boolean }> = [
  { name: 'GET /api/health', env: {}, method: 'GET', path: '/api/health' },
  { name: 'junk {}: admitted, 400', env: {}, method: 'POST', path: '/api/chat', body: '{}' },
  { name: 'junk {}: 429, server scope', env: { RATE_LIMIT_GLOBAL_BURST: '1', RATE_LIMIT_GLOBAL_PER_SECOND: '0.001' }, method: 'POST', path: '/api/chat', body: '{}' },
  { name: 'junk {}: 429, address scope', env: { RATE_LIMIT_BURST: '1', RATE_LIMIT_PER_SECOND: '0.001' }, method: 'POST', path: '/api/chat', body: '{}', oneAddress: true },
]

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
function send(port: number, kind: (typeof kinds)[number], address: string): Promise<number> {
  const headers: Record<string, string | number> = { 'x-forwarded-for': address }
  if (kind.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(kind.body) })
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: kind.path, method: kind.method, agent, headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode!))
    })
    request.on('error', reject)
    request.end(kind.body)
  })
}

const setup = serverSetups.find((candidate) => candidate.name === 'embedded')!
for (const [index, kind] of kinds.entries()) {
  const prepared = await setup.prepare()
  const server = await startServer({ port: PORT + index, env: { ...prepared.env, TRUST_PROXY: '1', ...kind.env } })
  try {
    const address = (n: number) => (kind.oneAddress ? '10.9.9.9' : `10.${128 + ((n >> 8) & 63)}.${n & 255}.2`)
    for (let n = 0; n < WARM_UP; n++) await send(PORT + index, kind, address(n))
    const statuses = new Map<number, number>()
    const before = processCpuMs(server.pid)
    for (let n = 0; n < REQUESTS; n++) {
      const status = await send(PORT + index, kind, address(n))
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
    const perRequest = (processCpuMs(server.pid) - before) / REQUESTS
    console.log(`${kind.name.padEnd(30)} ${perRequest.toFixed(3)} ms of server CPU a request (statuses ${JSON.stringify(Object.fromEntries(statuses))})`)
  } finally {
    await server.stop()
    await prepared.cleanup()
  }
}
agent.destroy()
