/**
 * `BENCH_WITHOUT_TELEMETRY=1`, for the bench alone (`bench/traces-cpu.ts`): the server with
 * every entry point of its telemetry bypassed — no request hook (no log line, no request
 * duration, no server span), no model-call, answer or store observers — as the code was before
 * logs, metrics and traces were added, so that what they cost with no exporter is measured side
 * by side in one build. Never for a deployment: the server then tells its operator nothing.
 */
export function telemetryBypassed(env: Record<string, string | undefined> = process.env): boolean {
  return env.BENCH_WITHOUT_TELEMETRY === '1'
}
