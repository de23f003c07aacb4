import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createServerMetrics } from './metrics'

const root = new URL('../../', import.meta.url)

/** Every metric name an expression of the dashboard reads. */
function dashboardMetrics(): string[] {
  const dashboard = JSON.parse(readFileSync(new URL('ops/grafana-dashboard.json', root), 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> }
  const names = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => [...target.expr.matchAll(/\b([a-z_]+)(?=\{)/g)].map((match) => match[1]!)))
  return [...new Set(names)]
}

describe('the metrics', () => {
  it('serve, in Prometheus text, the series counted: a request by route and status, a refusal by code and scope, waiting sessions by tool', async () => {
    const metrics = createServerMetrics()
    metrics.httpRequestDuration.observe({ http_request_method: 'POST', http_route: '/api/chat', http_response_status_code: 429 }, 0.02)
    metrics.refusals.note('rate_limited', 'server')
    metrics.countWaitingSessions(async () => new Map([['book_flight', 2]]))
    const text = await metrics.registry.metrics()
    expect(text).toContain('http_server_request_duration_seconds_count{http_request_method="POST",http_route="/api/chat",http_response_status_code="429"} 1')
    expect(text).toContain('http_server_request_duration_seconds_bucket{le="0.025",http_request_method="POST",http_route="/api/chat",http_response_status_code="429"} 1')
    expect(text).toContain('elicit_refusals_total{code="rate_limited",scope="server"} 1')
    expect(text).toContain('elicit_tool_sessions_waiting{tool="book_flight"} 2')
  })

  it('the waiting sessions are read again at each scrape: a tool with none left has no series', async () => {
    const metrics = createServerMetrics()
    let counts = new Map([['book_flight', 1]])
    metrics.countWaitingSessions(async () => counts)
    expect(await metrics.registry.metrics()).toContain('elicit_tool_sessions_waiting{tool="book_flight"} 1')
    counts = new Map()
    expect(await metrics.registry.metrics()).not.toContain('elicit_tool_sessions_waiting{tool=')
  })

  it('the Grafana dashboard reads only metrics the server serves, and docs/operating.md names each of ours', async () => {
    const metrics = createServerMetrics()
    // Each metric's series names: a histogram's are its buckets, sum and count.
    const served = new Set(
      (await metrics.registry.getMetricsAsJSON()).flatMap((metric) =>
        String(metric.type) === 'histogram' ? [`${metric.name}_bucket`, `${metric.name}_sum`, `${metric.name}_count`] : [metric.name],
      ),
    )
    expect(dashboardMetrics().filter((name) => !served.has(name))).toEqual([])
    const operating = readFileSync(new URL('docs/operating.md', root), 'utf8')
    const ours = (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name).filter((name) => !/^(process|nodejs)_/.test(name))
    expect(ours.filter((name) => !operating.includes(`\`${name}\``))).toEqual([])
  })
})
