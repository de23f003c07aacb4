import { createChatServer, type ChatServer } from '../engine'
import { createAdmission, createInFlightLimiter, type Admission, type ClientIdentityResolver, type InFlightLimiter } from '../http'
import { selectChatModel } from '../models'
import { useEmbeddedSessionStore } from '../sessions/stores/embedded-store'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { createMemorySessionStore } from '../sessions'
import { useRedisCallEnds } from '../sessions/stores/redis-call-ends'
import { offlineSkills, pluginTools } from '@/plugins'
import { createServerToolSource, type ToolAudience } from '../mcp/client'
import { createAccountIdentity } from '../auth'
import { readServerConfig } from './config'
import { getSignIn } from './sign-in-instance'
import { getBrowserIdentity } from './browser-identity-instance'
import { getBudgets } from './budget-instance'
import { getMcpClients, getToolAudience } from './mcp-clients-instance'
import { chatHistoryOf, type ConversationLimits } from '../conversations'
import { readConversationLimits } from './conversation-limits'
import { openConversations, type OpenConversations } from './open-conversations'
import { captureContent, serverMetrics, serverTracer, telemetryBypassed } from '../telemetry'
import { modelCallMetrics } from './model-call-metrics'
import { readInstanceName } from './instance-name'
import { dbSystemOf, observedStore, SESSION_STORE_OPERATIONS, sessionRecordSpan } from './observed-store'
import { storeOperationMetrics } from './store-operation-metrics'
import { logRedisOutage } from './redis-outage-log'

/** The app's chat server and the identity every request is resolved with. */
export interface ChatApp {
  chat: ChatServer
  /** Who is asking: the browser identity, or with sign-in configured the signed-in account (`createAccountIdentity`). */
  identity: ClientIdentityResolver
  /** Who may use which external MCP server's tools (mcp.json's `users`; everyone without sign-in). */
  toolAudience: ToolAudience
  /** Requests per client address and to the whole server, work in progress first (chat, MCP, MCP Apps). */
  admission: Admission
  /** Chat requests per client address being answered at once. */
  inFlight: InFlightLimiter
  /** Whether the client address comes from a proxy's `X-Forwarded-For` (`TRUST_PROXY=1`). */
  trustProxy: boolean
  /** Where sessions are kept: 'embedded', 'redis' or 'memory'. */
  store: string
  /** This instance's name (`INSTANCE_NAME`, else host and port), kept in the session records it writes. */
  instance: string
  /** The chats kept on the server, in the sessions' store: the chat keeps its turns in them, the chats API serves them. */
  chats: OpenConversations & { limits: ConversationLimits }
  /**
   * Moves the work of the browser identity `from` to the account `to` when the browser signs in
   * (docs/sign-in.md): its waiting tool sessions, then its chats. Idempotent; what an
   * interruption leaves behind moves with the next sign-in.
   */
  adopt(from: string, to: string): Promise<void>
}

const globalForChat = globalThis as typeof globalThis & { chatApp?: Promise<ChatApp> }

/**
 * The app's one chat server: the plugins' tools, the model the environment selects, and
 * sessions in the store it names — Redis with `REDIS_URL`, else the embedded store in
 * `DATA_DIR` (`SESSION_STORE=memory` keeps them in memory, lost on restart: for benchmarks).
 * Kept on globalThis so that dev-mode module reloads do not open the store twice.
 */
export function getChatApp(): Promise<ChatApp> {
  globalForChat.chatApp ??= startChatApp()
  return globalForChat.chatApp
}

async function startChatApp(): Promise<ChatApp> {
  const config = readServerConfig()
  const { redisUrl, dataDir, limits, store } = config
  const [clients, toolAudience, browserIdentity, signIn, budgets] = await Promise.all([getMcpClients(), getToolAudience(), getBrowserIdentity(), getSignIn(), getBudgets()])
  const chatLimits = readConversationLimits()
  const chats = await openConversations({ store, redisUrl, dataDir, limits: chatLimits, tracer: serverTracer() })
  const chatModel = selectChatModel({ skills: offlineSkills })
  const instance = readInstanceName()
  // The bench's baseline only (BENCH_WITHOUT_TELEMETRY=1): no observer at all, as before telemetry.
  const observed = !telemetryBypassed()
  const chat = await createChatServer({
    model: chatModel.model,
    observeModelCall: observed ? modelCallMetrics(serverMetrics(), chatModel.name) : undefined,
    // Traces only when an OTLP endpoint is set (instrumentation-node.ts started the SDK).
    tracer: serverTracer(),
    traceContent: captureContent(),
    tools: pluginTools,
    // An external call waits for its user as long as a plugin's question does.
    externalTools: createServerToolSource({ clients, callTimeoutMs: config.idleTimeoutMs }),
    toolAudience,
    idleTimeoutMs: config.idleTimeoutMs,
    hotMs: config.hotMs,
    instance,
    secret: config.sessionSecret,
    maxIterations: limits.maxModelStepsPerTurn,
    maxToolCallsPerStep: limits.maxToolCallsPerStep,
    maxOutputTokens: limits.maxOutputTokens,
    modelTimeoutMs: limits.modelTimeoutMs,
    sessionLimits: { maxOpenPerClient: limits.maxWaitingSessionsPerClient, maxOpen: limits.maxWaitingSessions },
    maxToolContextBytes: limits.toolContextMaxBytes,
    toolStartsPerAddress: { burst: limits.toolStartsBurst, perSecond: limits.toolStartsPerMinute / 60 },
    useStore: function* () {
      const opened = store === 'redis' ? yield* useRedisSessionStore({ url: redisUrl!, onOutage: logRedisOutage }) : store === 'embedded' ? yield* useEmbeddedSessionStore({ directory: dataDir }) : createMemorySessionStore()
      if (!observed) return opened
      return observedStore(opened, SESSION_STORE_OPERATIONS, {
        system: dbSystemOf(store),
        collection: 'sessions',
        report: storeOperationMetrics(serverMetrics(), store),
        tracer: serverTracer(),
        parentOf: sessionRecordSpan,
      })
    },
    // Each call the sessions stop is announced to every instance: Redis pub/sub, opened at the start
    // as the stores are (its client reconnects by itself afterwards); else within this process.
    useCallEnds: store === 'redis' ? () => useRedisCallEnds({ url: redisUrl! }) : undefined,
    observeAnswer: observed ? (outcome) => serverMetrics().answers.inc({ outcome }) : undefined,
    history: chatHistoryOf(chats.conversations),
    budget: budgets.budget,
  })
  const admission = createAdmission({
    burst: limits.rateBurst,
    perSecond: limits.ratePerSecond,
    globalBurst: limits.globalRateBurst,
    globalPerSecond: limits.globalRatePerSecond,
    lightAttempts: limits.fairShareRequests,
    groupLightAttempts: limits.fairShareGroupRequests,
  })
  const inFlight = createInFlightLimiter({ maxPerAddress: limits.maxRequestsInFlightPerAddress })
  // With sign-in, the account is the identity: its work follows it to every device; a guest's is
  // the browser's (AUTH_GUESTS=on; docs/sign-in.md).
  const identity = signIn ? createAccountIdentity(signIn.signIn, signIn.config.guests ? browserIdentity : undefined) : browserIdentity
  const adopt = async (from: string, to: string) => {
    // The sessions first: a chat that shows under the account can then be answered there.
    await chat.moveWaiting({ from, to })
    await chats.run(() => chats.conversations.moveChats(from, to))
  }
  return { chat, identity, toolAudience, admission, inFlight, trustProxy: limits.trustProxy, store, instance, chats: { ...chats, limits: chatLimits }, adopt }
}
