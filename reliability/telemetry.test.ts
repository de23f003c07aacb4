import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { contextOf, createChatApi } from '../e2e/support/chat-api'
import { freePort } from '../e2e/support/app-process'
import { killServer, launchServer } from '../lib/testing/server-process'
import { report } from './support/measure'
import { processesPerTest } from './support/processes'

const processes = processesPerTest()
const stopAfter: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of stopAfter.splice(0)) await stop()
})

/**
 * A real Prometheus (Debian's package, `scripts/ensure-prometheus.sh`) of the test's own: its
 * configuration and storage in a temporary directory, on a free port, scraping `target` every
 * second; ended by its pid after the test. Never the system service the package installs.
 */
async function startPrometheus(target: string): Promise<{ query(expression: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'prometheus-'))
  const port = await freePort()
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: elicit-chat\n    static_configs:\n      - targets: ['${target}']\n`,
  )
  const child = await launchServer({
    name: `prometheus on port ${port}`,
    command: 'prometheus',
    args: [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    ready: (output) => output.includes('Server is ready to receive web requests'),
    notInstalled: 'prometheus is not installed: run `bash scripts/ensure-prometheus.sh`.',
  })
  stopAfter.push(async () => {
    await killServer(child)
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    async query(expression) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`)
      const body = (await response.json()) as { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }
      if (body.status !== 'success') throw new Error(`Prometheus answered ${JSON.stringify(body)}`)
      return body.data.result
    },
  }
}

/** The app's JSON log lines (stdout is a pipe here, not a terminal). */
function logLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('what the operator sees', () => {
  it('a request log in JSON lines, and metrics on METRICS_PORT that a real Prometheus scrapes: request durations by route, refusals by code, tool sessions waiting by tool, MCP sessions open, model calls and tokens', async () => {
    const metricsPort = await freePort()
    const app = await processes.app({ env: { METRICS_PORT: String(metricsPort) } })
    const secret = 'a message only its writer may read'

    // A refusal: a body the chat cannot take.
    const refused = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":"x"}' })
    expect(refused.status).toBe(400)
    // The mark that carried its code to the log line was taken off before the head was written.
    expect([...refused.headers.keys()].filter((name) => name.startsWith('x-elicit'))).toEqual([])
    const refusedCode = ((await refused.json()) as { error: { code: string } }).error.code
    // A turn, then a booking that waits at its first question, from one browser.
    const chat = createChatApi({ baseURL: app.url })
    const greeting = await chat.say(secret)
    expect(greeting.status).toBe(200)
    const booking = await chat.startBooking()
    expect(booking.elicit?.key).toBe('pickFlight')
    // Its first answer, taken by the tool still in memory; the tool then waits on the seat.
    const flights = contextOf(booking.elicit!).flights as Array<{ id: string }>
    const seat = await chat.answer({ event: booking.elicit!, content: { flightId: flights[0]!.id } })
    expect(seat.elicit?.key).toBe('pickSeat')
    // A liveness probe, as a load balancer sends (the start's own probe can race the server's first moments).
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200)
    // The metrics are on their own port only.
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404)
    // Two MCP sessions opened (2025-11-25), one of them ended by its client: one stays open.
    const openMcpSession = async () => {
      const response = await fetch(`${app.url}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'telemetry.test', version: '1' } } }),
      })
      expect(response.status).toBe(200)
      await response.text()
      return response.headers.get('mcp-session-id')!
    }
    await openMcpSession()
    const ended = await fetch(`${app.url}/api/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': await openMcpSession(), 'mcp-protocol-version': '2025-11-25' } })
    expect(ended.status).toBe(200)

    const prometheus = await startPrometheus(`127.0.0.1:${metricsPort}`)
    // Prometheus scrapes on its own clock (every second): the series appear once it has.
    const valueOf = async (expression: string) => Number((await prometheus.query(expression))[0]?.value[1] ?? NaN)
    await expect.poll(() => valueOf('http_server_request_duration_seconds_count{http_route="/api/chat",http_request_method="POST",http_response_status_code="200"}'), { timeout: 20_000 }).toBe(3)
    expect(await valueOf('http_server_request_duration_seconds_count{http_route="/api/chat",http_response_status_code="400"}')).toBe(1)
    expect(await valueOf(`elicit_refusals_total{code="${refusedCode}"}`)).toBe(1)
    expect(await valueOf('elicit_tool_sessions_waiting{tool="book_flight"}')).toBe(1)
    expect(await valueOf('elicit_answers_total{outcome="resumed_hot"}')).toBe(1)
    expect(await valueOf('elicit_mcp_sessions_open')).toBe(1)
    // The sessions' store (the embedded one, SQLite): the booking's record created once, then written again.
    expect(await valueOf('db_client_operation_duration_seconds_count{db_system_name="sqlite",db_operation_name="create",error_type=""}')).toBe(1)
    expect(await valueOf('db_client_operation_duration_seconds_count{db_system_name="sqlite",db_operation_name="update",error_type=""}')).toBeGreaterThanOrEqual(1)
    // Two model calls (the greeting, the booking's call of its tool), each with its tokens.
    expect(await valueOf('gen_ai_client_operation_duration_seconds_count{gen_ai_provider_name="offline",gen_ai_operation_name="chat",error_type=""}')).toBe(2)
    expect(await valueOf('gen_ai_client_token_usage_count{gen_ai_provider_name="offline",gen_ai_token_type="input"}')).toBe(2)
    expect(await valueOf('gen_ai_client_token_usage_sum{gen_ai_provider_name="offline",gen_ai_token_type="output"}')).toBeGreaterThan(0)
    // No id in a label: the route is the pattern, whatever the path.
    const routes = new Set((await prometheus.query('http_server_request_duration_seconds_count')).map((series) => series.metric.http_route))
    expect([...routes].sort()).toEqual(['/api/chat', '/api/health', '/api/mcp', 'other'])

    // The log: one line per request, the refusal's code on its line, the identity hashed, no message text.
    const requests = logLines(app.output()).filter((line) => line.msg === 'request' && line.route === '/api/chat')
    expect(requests.map((line) => [line.method, line.status, line.code])).toEqual([
      ['POST', 400, refusedCode],
      ['POST', 200, undefined],
      ['POST', 200, undefined],
      ['POST', 200, undefined],
    ])
    for (const line of requests) {
      expect(typeof line.time).toBe('string')
      expect(line.durationMs).toBeGreaterThan(0)
    }
    const cookieValue = chat.cookie!.split('=').slice(1).join('=')
    const hashed = createHash('sha256').update(cookieValue).digest('hex').slice(0, 16)
    // The first turn brings the browser its cookie: from its next request on, its identity is on the line.
    expect(requests.map((line) => line.identity)).toEqual([undefined, undefined, hashed, hashed])
    expect(app.output()).not.toContain(secret)
    expect(app.output()).not.toContain(cookieValue)
    report('telemetry', {
      'request log': '1 JSON line per request, refusal code on it, identity hashed, no message text',
      prometheus: 'scraped request durations by route, refusals by code, 1 book_flight session waiting, 1 answer resumed hot, 1 MCP session open, the store timed, 2 model calls with their tokens',
    })
  })

  it('a turn that streams, then fails: its log line carries the error event\'s code, and the model error and the turn error are counted', async () => {
    const metricsPort = await freePort()
    // The offline model pauses 5 s before its first piece; its call may take 1 s: a model_timeout after the 200, whatever the machine's speed.
    const app = await processes.app({ env: { METRICS_PORT: String(metricsPort), MODEL_TIMEOUT_MS: '1000', OFFLINE_MODEL_DELAY_MS: '5000' } })
    const chat = createChatApi({ baseURL: app.url })
    const turn = await chat.say('Hello')
    expect(turn.status).toBe(200)
    expect(turn.events.find((event) => event.type === 'error')).toMatchObject({ type: 'error', code: 'model_timeout' })

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    expect(metrics).toContain('elicit_turn_errors_total{code="model_timeout"} 1')
    expect(metrics).toContain('elicit_model_errors_total{gen_ai_provider_name="offline",error_type="timeout"} 1')
    const line = logLines(app.output()).find((entry) => entry.msg === 'request' && entry.route === '/api/chat')
    expect(line).toMatchObject({ level: 'info', method: 'POST', status: 200, code: 'model_timeout' })
  })
})
