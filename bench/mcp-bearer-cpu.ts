// Issue 36: what checking an OAuth access token (a JWT, against the issuer's cached keys) costs
// the server, against the static MCP_AUTH_TOKEN: the same 2026-07-28 bookings over /api/mcp with
// each, in alternating blocks, the server process's CPU time (every thread, /proc) per booking.
import { startTestAuthorizationServer } from '../lib/testing/oauth-authorization-server'
import { bookOverMcpRounds } from './mcp-booking'
import { processCpuMs } from './process-cpu'
import { startServer } from './server-process'

const STATIC_TOKEN = 'a-static-token-for-the-bench-0123456789'

export interface BearerCpu {
  /** Server CPU ms per booking (three rounds) with the static token, and with a JWT, one figure per block. */
  staticMs: number[]
  jwtMs: number[]
  /** median JWT / median static. */
  ratio: number
}

/** `bookings` bookings with each token on the embedded store, in blocks of 10 that alternate, after a warm-up of 10 each. */
export async function measureBearerCpu({ port, env, bookings }: { port: number; env: Record<string, string>; bookings: number }): Promise<BearerCpu> {
  const base = `http://127.0.0.1:${port}`
  const authServer = await startTestAuthorizationServer({ resource: `${base}/api/mcp`, scopes: ['tools:book_flight'] })
  try {
    const server = await startServer({
      port,
      env: { ...env, MCP_AUTH_TOKEN: STATIC_TOKEN, MCP_AUTH_ISSUER: authServer.issuer, APP_URL: base, MCP_AUTH_SCOPES: 'tools:book_flight' },
    })
    try {
      // A token that lasts the run; its keys fetched once by the server, in the warm-up.
      const jwt = await authServer.sign({ sub: 'bench', exp: Math.floor(Date.now() / 1000) + 3600 })
      const tokens = { static: `Bearer ${STATIC_TOKEN}`, jwt: `Bearer ${jwt}` }
      for (let index = 0; index < 10; index++) {
        await bookOverMcpRounds(base, tokens.static)
        await bookOverMcpRounds(base, tokens.jwt)
      }
      const perBooking = { static: [] as number[], jwt: [] as number[] }
      const block = 10
      for (let done = 0; done < bookings; done += block) {
        for (const kind of ['static', 'jwt'] as const) {
          const before = processCpuMs(server.pid)
          for (let index = 0; index < block; index++) await bookOverMcpRounds(base, tokens[kind])
          perBooking[kind].push((processCpuMs(server.pid) - before) / block)
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
      return { staticMs: perBooking.static, jwtMs: perBooking.jwt, ratio: median(perBooking.jwt) / median(perBooking.static) }
    } finally {
      await server.stop()
    }
  } finally {
    await authServer.stop()
  }
}
