// Diagnostic for the overload section: where an answer's time goes under the flood.
//
//   OVERLOAD_PROBE_FILE=/tmp/probe.log NODE_OPTIONS=--require=./bench/overload-probe.cjs \
//     BENCH_SERVERS= BENCH_SEQUENTIAL=0 BENCH_MCP_BOOKINGS=0 BENCH_HTTP_LEAK_BOOKINGS=0 \
//     BENCH_WAITING=0 BENCH_DEHYDRATED=0 BENCH_BOOKINGS=0 npm run bench
//
// Preloaded into every node process of the bench, it acts in the production server only
// (.next/standalone/server.js) and appends a line a second to OVERLOAD_PROBE_FILE: the main
// thread's event-loop utilization, the server's CPU (every thread, in cores), the event loop's
// delay (p50/p99, a 1 ms timer), and the time each kind of request spent in the server, from
// Node's 'request' event to its response's 'finish': the flood's (X-Forwarded-For in
// 10.128.0.0/9), the measured clients' chat requests, and GET /api/health. What a client
// waited beyond that was spent before Node read its request, or after the last byte was written.
if (process.argv[1]?.endsWith('standalone/server.js') && process.env.OVERLOAD_PROBE_FILE) {
  const { monitorEventLoopDelay, performance } = require('node:perf_hooks')
  const { appendFileSync } = require('node:fs')
  const http = require('node:http')
  const file = process.env.OVERLOAD_PROBE_FILE
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  let utilization = performance.eventLoopUtilization()
  let cpu = process.cpuUsage()
  let times = {}
  const emit = http.Server.prototype.emit
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const [request, response] = args
      const started = performance.now()
      const from = String(request.headers['x-forwarded-for'] ?? '').split(',').at(-1).trim()
      const kind = request.method === 'GET' ? 'health' : /^10\.(1[3-9]\d|12[89]|2[0-5]\d)\./.test(from) ? 'flood' : 'measured chat'
      response.once('finish', () => (times[kind] ??= []).push(performance.now() - started))
    }
    return emit.apply(this, [event, ...args])
  }
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]
  }
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    const elu = performance.eventLoopUtilization(now, utilization).utilization
    utilization = now
    const used = process.cpuUsage(cpu)
    cpu = process.cpuUsage()
    const kinds = Object.entries(times)
      .map(([kind, values]) => `${kind} n=${values.length} p50 ${percentile(values, 0.5).toFixed(1)} p95 ${percentile(values, 0.95).toFixed(1)}`)
      .join('; ')
    times = {}
    const ms = (ns) => (ns / 1e6).toFixed(1)
    appendFileSync(
      file,
      `${new Date().toISOString().slice(11, 23)} event loop ${elu.toFixed(2)} busy, CPU ${((used.user + used.system) / 1e6).toFixed(2)} cores, delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} ms | in the server (ms): ${kinds}\n`,
    )
    delay.reset()
  }, 1000).unref()
}
