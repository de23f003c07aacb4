import { getChatApp } from './lib/server/chat-server-instance'
import { getMcpEndpoint } from './lib/server/mcp-server-instance'
import { installAdmissionGate } from './lib/http/admission-gate'
import { installPeerAddress } from './lib/http/peer-address'
import { installPageIdentity } from './lib/http/page-identity'
import { watchForStop } from './lib/server/graceful-stop'
import { installRequestTelemetry } from './lib/http/request-telemetry'
import { readMetricsConfig, startMetricsServer } from './lib/server/metrics-server'
import { serverLogger, serverMetrics, startTracing, telemetryBypassed } from './lib/telemetry'
import { installSignIn } from './lib/auth/page-gate'
import { getSignIn } from './lib/server/sign-in-instance'

/*
 * Opens the session store and checks the configuration when the server starts, so that a
 * wrong REDIS_URL, a missing SESSION_SECRET or an unwritable DATA_DIR stops the server at once
 * with a message saying what to change, not at the first request.
 */
// From a SIGTERM on, even one during the start, the readiness route answers 503 (graceful-stop.ts).
watchForStop()
try {
  // A wrong LOG_LEVEL or METRICS_PORT stops the start here, saying what to change.
  const logger = serverLogger()
  const metricsAt = readMetricsConfig()
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set; before the chat server, which is handed the tracer.
  const tracing = await startTracing()
  // The chat server opens its stores, and the stops of calls passed between instances (Redis pub/sub), now.
  const [{ store, trustProxy, admission, identity }, signIn] = await Promise.all([getChatApp(), getSignIn()])
  // One log line and one duration per request (request-telemetry.ts); first, so that it sees only what reaches Next.
  if (!telemetryBypassed()) installRequestTelemetry()
  // Rate limits key on the TCP peer address, which route handlers cannot see (see peer-address.ts).
  installPeerAddress({ trustProxy })
  // While the server's budget is spent, heavy clients' requests reach Next one per turn of the event loop (admission-gate.ts).
  installAdmissionGate({ admission, trustProxy })
  if (signIn) {
    // Pages send an unsigned visitor to sign in (proxy.ts); the account is the identity, no browser cookie is made.
    installSignIn(signIn.signIn)
    // A guest's page brings the browser identity's cookie, as without sign-in (AUTH_GUESTS=on).
    if (signIn.config.guests) installPageIdentity(identity)
    logger.info(`Sign-in: ${signIn.config.issuer}; register the redirect URI ${signIn.config.redirectUri} at the provider${signIn.config.guests ? '; guests may chat without signing in (AUTH_GUESTS=on)' : ''}`, { issuer: signIn.config.issuer, redirectUri: signIn.config.redirectUri, guests: signIn.config.guests })
  } else {
    // A page's HTML brings its identity cookie, so that its first requests share one (page-identity.ts).
    installPageIdentity(identity)
  }
  if (tracing) logger.info('Traces: exported over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)', { traces: 'otlp' })
  logger.info(`Sessions: ${store} store; client addresses from ${trustProxy ? "the proxy's X-Forwarded-For (TRUST_PROXY=1)" : 'the TCP peer'}`, { store, trustProxy })
  if (metricsAt) {
    await startMetricsServer({ ...metricsAt, metrics: serverMetrics(), logger })
    logger.info(`Metrics for Prometheus on http://${metricsAt.host}:${metricsAt.port}/metrics`, { metricsPort: metricsAt.port })
  }
} catch (error) {
  console.error(`The chat server cannot start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

// The MCP endpoint too: a short MCP_STATE_SECRET stops the server now, not at the first MCP request.
try {
  await getMcpEndpoint()
} catch (error) {
  console.error(`The MCP endpoint cannot start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
