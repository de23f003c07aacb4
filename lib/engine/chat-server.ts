import type { LanguageModel } from 'ai'
import { createScope, suspend, type Operation } from 'effection'
import { usePluginSessionManager, type PluginSessionInfo, type PluginSessionManager } from '../sessions'
import { checkLimits, type BranchLimits } from '../tools/limits'
import type { AnyMcpTool } from '../tools/types'
import { DEFAULT_SYSTEM_PROMPT, runTurn, type ChatEngineConfig } from './chat-engine'
import { ChatRequestError } from './errors'
import { createNdjsonStream } from './ndjson-stream'
import { prepareTurn, type TurnPlan } from './prepare-turn'
import { chatRequestSchema } from '../protocol/request-schema'
import { createModelSampler } from './sample-with-model'
import { createToolRegistry } from './tool-registry'
import { toIssues } from '../runtime/json-schema'

export interface ChatServerOptions {
  model: LanguageModel
  tools: readonly AnyMcpTool[]
  systemPrompt?: string
  maxIterations?: number
  idleTimeoutMs?: number
  /** The runtime's limits on tools' branches; a tool's `.limits()` and each branch site win over them. */
  branchLimits?: BranchLimits
}

/** The chat engine with its long-lived scope: plugin sessions live here between requests. */
export interface ChatServer {
  /** Validate a request body against the contract and the live sessions; throws ChatRequestError. */
  prepare(options: { body: unknown; clientId: string }): Promise<TurnPlan>
  /** Run a prepared turn, streaming NDJSON events; `signal` (the request's) stops it. */
  stream(plan: TurnPlan, signal?: AbortSignal): ReadableStream<Uint8Array>
  listActive(): Promise<PluginSessionInfo[]>
  /** Halt every session and the scope. */
  close(): Promise<void>
}

export async function createChatServer({
  model,
  tools,
  systemPrompt = DEFAULT_SYSTEM_PROMPT,
  maxIterations = 8,
  idleTimeoutMs,
  branchLimits,
}: ChatServerOptions): Promise<ChatServer> {
  if (branchLimits) checkLimits('createChatServer branchLimits', branchLimits)
  const [scope, destroy] = createScope()
  const sessions = await new Promise<PluginSessionManager>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* usePluginSessionManager({ idleTimeoutMs }))
        yield* suspend()
      })
      .catch(reject)
  })
  const config: ChatEngineConfig = { model, tools: createToolRegistry(tools), sessions, systemPrompt, maxIterations, branchLimits, sample: createModelSampler(model) }
  const run = <T>(operation: () => Operation<T>) => scope.run(operation)

  return {
    async prepare({ body, clientId }) {
      const parsed = chatRequestSchema.safeParse(body)
      if (!parsed.success) {
        throw new ChatRequestError('invalid_request', 'The request body does not match the chat contract.', toIssues(parsed.error))
      }
      return await run(() => prepareTurn({ request: parsed.data, clientId, sessions }))
    },
    stream: (plan, signal) => createNdjsonStream({ scope, signal, run: (emit) => runTurn({ plan, config, emit }) }),
    listActive: () => run(() => sessions.listActive()),
    close: () => destroy(),
  }
}
