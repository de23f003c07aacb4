import path from 'node:path'
import { accountIdOf } from '../auth/account'
import { Refusal } from '../http'
import { createMcpEndpoint, createResourceAuth, readQuestionApps, tracedMcpEndpoint, type McpEndpoint, type ResourceAuth } from '../mcp/server'
import { selectChatModel } from '../models'
import { useEmbeddedSessionStore } from '../sessions/stores/embedded-store'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { offlineSkills, pluginTools } from '@/plugins'
import { getChatApp } from './chat-server-instance'
import { readServerConfig } from './config'
import { readMcpConfig } from './mcp-config'
import { serverTracer } from '../telemetry'
import { logFailure } from '../http/failure-log'

/** Where `scripts/build-mcp-apps.mjs` writes the apps (its DEFAULT_APPS_DIR), relative to the server's working directory. */
const QUESTION_APPS_DIR = '.mcp-apps'

/** The Redis key prefix of the MCP endpoint's records (the chat's are under the store's default, `elicit:`). */
const MCP_REDIS_PREFIX = 'elicit-mcp:'

const globalForMcp = globalThis as typeof globalThis & { mcpEndpoint?: Promise<McpEndpoint>; mcpResourceAuth?: ResourceAuth | null }

/**
 * `/api/mcp` as an OAuth protected resource, when `MCP_AUTH_ISSUER` is set: a token's caller is
 * `accountIdOf(iss, sub)`, the id sign-in gives the same person when the chat signs in with the
 * same issuer, so the MCP caller and the chat's account are one.
 */
export function getMcpResourceAuth(): ResourceAuth | undefined {
  if (globalForMcp.mcpResourceAuth === undefined) {
    const { oauth } = readMcpConfig(process.env, readServerConfig())
    globalForMcp.mcpResourceAuth = oauth ? createResourceAuth({ ...oauth, principalOf: accountIdOf }) : null
  }
  return globalForMcp.mcpResourceAuth ?? undefined
}

/** `/.well-known/oauth-protected-resource[/api/mcp]` (RFC 9728): the resource's metadata, or 404 when `/api/mcp` takes no access tokens. */
export function protectedResourceMetadata(): Response {
  const resourceAuth = getMcpResourceAuth()
  if (!resourceAuth) return new Refusal('not_found', 'This server takes no OAuth access tokens (MCP_AUTH_ISSUER is not set).').toResponse()
  return resourceAuth.metadataResponse()
}

/**
 * The app's MCP endpoint (`/api/mcp`): the plugins' tools, the model the environment selects
 * for clients that do not sample, its 2025 sessions, their calls and answered rounds kept where
 * the chat's sessions are (Redis under a prefix of their own, or a store of their own beside the
 * embedded one in `DATA_DIR`), admitted under load by the chat's
 * admission. Configured when the server starts. The questions' MCP Apps are the ones `npm run build`
 * built into `.mcp-apps/` of the directory the server runs in (the standalone server's own copy).
 */
export function getMcpEndpoint(): Promise<McpEndpoint> {
  if (!globalForMcp.mcpEndpoint) {
    globalForMcp.mcpEndpoint = startMcpEndpoint()
    process.once('SIGTERM', closeOnSigterm)
  }
  return globalForMcp.mcpEndpoint
}

/**
 * A graceful stop (SIGTERM: systemd, Kubernetes, a rolling deploy) waits in Next until every
 * open request has ended, and a 2025 client's streams never end by themselves: the endpoint's
 * streams are ended here, so the stop finishes. Nothing is lost: sessions and calls are in the
 * store, and the clients resume on another instance (or this one, started again) with
 * `Last-Event-ID`. Next's own SIGTERM handler still stops the server and exits.
 */
function closeOnSigterm(): void {
  globalForMcp.mcpEndpoint
    ?.then((endpoint) => endpoint.close())
    .catch((error: unknown) => logFailure('mcp_endpoint_close_failed', 'closing the MCP endpoint on SIGTERM failed', error))
}

async function startMcpEndpoint(): Promise<McpEndpoint> {
  const config = readServerConfig()
  const mcp = readMcpConfig(process.env, config)
  const { redisUrl, dataDir } = config
  const memory = config.store === 'memory'
  const extend = mcp.conformance ? (await import('../mcp/server/conformance/fixtures')).registerConformanceFixtures : undefined
  // One budget for the whole server: MCP calls and chat turns are admitted by the same rules.
  const { admission } = await getChatApp()
  const endpoint = await createMcpEndpoint({
    admission,
    tools: pluginTools,
    model: selectChatModel({ skills: offlineSkills }).model,
    stateSecret: mcp.stateSecret,
    authToken: mcp.authToken,
    closedWithoutToken: mcp.closedWithoutToken,
    resourceAuth: getMcpResourceAuth(),
    allowedHosts: mcp.allowedHosts,
    maxSessionsPerClient: mcp.maxSessionsPerClient,
    extend,
    questionApps: readQuestionApps(path.resolve(QUESTION_APPS_DIR)),
    // Its own prefix in a shared Redis: MCP sessions and calls are never counted among the chat's open tool sessions.
    useStore: redisUrl
      ? () => useRedisSessionStore({ url: redisUrl, prefix: MCP_REDIS_PREFIX })
      : memory
        ? undefined
        : () => useEmbeddedSessionStore({ directory: path.join(dataDir, 'mcp-rounds') }),
  })
  // MCP spans only when traces are exported: otherwise the endpoint is served as it is.
  const tracer = serverTracer()
  return tracer ? tracedMcpEndpoint(endpoint, tracer) : endpoint
}
