import { createChatServer, type ChatServer } from '../engine'
import { createAdmission, createClientIdentity, createInFlightLimiter, type Admission, type ClientIdentityResolver, type InFlightLimiter } from '../http'
import { selectChatModel } from '../models'
import { useEmbeddedSessionStore } from '../sessions/stores/embedded-store'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { offlineSkills, pluginTools } from '@/plugins'
import { createServerToolSource } from '../mcp/client'
import { createAccountIdentity } from '../auth'
import { readServerConfig } from './config'
import { getSignIn } from './sign-in-instance'
import { getDeviceStore } from './device-store-instance'
import { getBudgets } from './budget-instance'
import { getMcpClients } from './mcp-clients-instance'
import { chatHistoryOf, type ConversationLimits } from '../conversations'
import { readConversationLimits } from './conversation-limits'
import { openConversations, type OpenConversations } from './open-conversations'
import { serverMetrics } from '../telemetry'
import { modelCallMetrics } from './model-call-metrics'

/** The app's chat server and the identity every request is resolved with. */
export interface ChatApp {
  chat: ChatServer
  /** Who is asking: the browser identity, or with sign-in configured the signed-in account (`createAccountIdentity`). */
  identity: ClientIdentityResolver
  /** Requests per client address and to the whole server, work in progress first (chat, MCP, MCP Apps). */
  admission: Admission
  /** Chat requests per client address being answered at once. */
  inFlight: InFlightLimiter
  /** Whether the client address comes from a proxy's `X-Forwarded-For` (`TRUST_PROXY=1`). */
  trustProxy: boolean
  /** Where sessions are kept: 'embedded', 'redis' or 'memory'. */
  store: string
  /** The chats kept on the server, in the sessions' store: the chat keeps its turns in them, the chats API serves them. */
  chats: OpenConversations & { limits: ConversationLimits }
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
  const [clients, devices, signIn, budgets] = await Promise.all([getMcpClients(), getDeviceStore(), getSignIn(), getBudgets()])
  const chatLimits = readConversationLimits()
  const chats = await openConversations({ store, redisUrl, dataDir, limits: chatLimits })
  const chatModel = selectChatModel({ skills: offlineSkills })
  const chat = await createChatServer({
    model: chatModel.model,
    observeModelCall: modelCallMetrics(serverMetrics(), chatModel.name),
    tools: pluginTools,
    // An external call waits for its user as long as a plugin's question does.
    externalTools: createServerToolSource({ clients, callTimeoutMs: config.idleTimeoutMs }),
    idleTimeoutMs: config.idleTimeoutMs,
    hotMs: config.hotMs,
    secret: config.sessionSecret,
    maxIterations: limits.maxModelStepsPerTurn,
    maxToolCallsPerStep: limits.maxToolCallsPerStep,
    maxOutputTokens: limits.maxOutputTokens,
    modelTimeoutMs: limits.modelTimeoutMs,
    sessionLimits: { maxOpenPerClient: limits.maxWaitingSessionsPerClient, maxOpen: limits.maxWaitingSessions },
    maxToolContextBytes: limits.toolContextMaxBytes,
    toolStartsPerAddress: { burst: limits.toolStartsBurst, perSecond: limits.toolStartsPerMinute / 60 },
    useStore:
      store === 'redis'
        ? () => useRedisSessionStore({ url: redisUrl! })
        : store === 'embedded'
          ? () => useEmbeddedSessionStore({ directory: dataDir })
          : undefined,
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
  // A browser joined to an identity with a code is checked against the device store (only joined
  // ones: the identity's first browser, everyone who never joins, pays nothing new; docs/devices.md).
  const browserIdentity = createClientIdentity({ secret: config.sessionSecret, trustProxy: limits.trustProxy, revoked: devices.store.revoked })
  // With sign-in, the account is the identity: its work follows it to every device (docs/sign-in.md).
  const identity = signIn ? createAccountIdentity(signIn.signIn) : browserIdentity
  return { chat, identity, admission, inFlight, trustProxy: limits.trustProxy, store, chats: { ...chats, limits: chatLimits } }
}
