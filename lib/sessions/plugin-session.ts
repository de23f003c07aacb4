import { createQueue, type Operation, type Scope, type Task } from 'effection'
import { createBridgeHost, type BridgeElicitRequest, type BridgeEvent, type RespondOutcome } from '../runtime/bridge-host'
import type { AnyMcpTool, ElicitResult } from '../tools/types'

export type PluginSessionStatus = 'running' | 'awaiting_elicit' | 'awaiting_sample' | 'completed' | 'failed' | 'aborted'

/** Everything a session reports to whoever drives it, ending with exactly one terminal event. */
export type PluginSessionEvent =
  | BridgeEvent
  | { type: 'completed'; result: unknown }
  | { type: 'failed'; error: Error }
  | { type: 'aborted'; reason: string }

/** One plugin tool call, alive across HTTP requests while it waits for the user. */
export interface PluginSession {
  /** The model's tool_call.id. */
  readonly id: string
  readonly callId: string
  readonly toolName: string
  /** The browser identity that started it; nobody else may answer or abort it. */
  readonly clientId: string
  readonly createdAt: number
  status(): PluginSessionStatus
  pendingElicitation(): BridgeElicitRequest | undefined
  respondToElicit(elicitId: string, result: ElicitResult<unknown>): RespondOutcome
  checkResponse(elicitId: string, result: ElicitResult<unknown>): RespondOutcome
  /** The next event; the driver calls this until a terminal event or an `elicit`. */
  nextEvent(): Operation<PluginSessionEvent>
  abort(reason?: string): Operation<void>
}

export interface StartPluginSessionOptions {
  /** The long-lived scope the tool runs in, so it outlives the request that started it. */
  scope: Scope
  tool: AnyMcpTool
  params: unknown
  callId: string
  clientId: string
  now: number
  /** Called once when the tool has ended, however it ended. */
  onEnd(session: PluginSession): void
}

const TERMINAL: ReadonlySet<PluginSessionStatus> = new Set(['completed', 'failed', 'aborted'])

export function isTerminal(status: PluginSessionStatus): boolean {
  return TERMINAL.has(status)
}

export function startPluginSession({ scope, tool, params, callId, clientId, now, onEnd }: StartPluginSessionOptions): PluginSession {
  const events = createQueue<PluginSessionEvent, never>()
  let status: PluginSessionStatus = 'running'
  let abortReason = 'The tool call was aborted.'

  const host = createBridgeHost({
    tool,
    params,
    callId,
    emit(event) {
      if (event.type === 'elicit') status = 'awaiting_elicit'
      if (event.type === 'sample') {
        status = 'awaiting_sample'
        const { resolve, reject } = event
        events.add({
          ...event,
          resolve(result) {
            status = 'running'
            resolve(result)
          },
          reject(error) {
            status = 'running'
            reject(error)
          },
        })
        return
      }
      events.add(event)
    },
  })

  let task: Task<void> | undefined
  const session: PluginSession = {
    id: callId,
    callId,
    toolName: tool.name,
    clientId,
    createdAt: now,
    status: () => status,
    pendingElicitation: () => (status === 'awaiting_elicit' ? host.pendingElicitation() : undefined),
    checkResponse: (elicitId, result) =>
      status === 'awaiting_elicit'
        ? host.checkResponse(elicitId, result)
        : { ok: false, code: 'session_not_waiting', message: `Tool call ${callId} is not waiting for an answer (it is ${status}).` },
    respondToElicit(elicitId, result) {
      if (status !== 'awaiting_elicit') return session.checkResponse(elicitId, result)
      const outcome = host.respondToElicit(elicitId, result)
      if (outcome.ok) status = 'running'
      return outcome
    },
    nextEvent: function* () {
      const next = yield* events.next()
      return next.value
    },
    *abort(reason) {
      if (isTerminal(status) || !task) return
      if (reason) abortReason = reason
      yield* task.halt()
    },
  }

  task = scope.run(function* () {
    let settled = false
    try {
      const result = yield* host.run()
      settled = true
      status = 'completed'
      events.add({ type: 'completed', result })
    } catch (error) {
      settled = true
      status = 'failed'
      events.add({ type: 'failed', error: error instanceof Error ? error : new Error(String(error)) })
    } finally {
      if (!settled) {
        status = 'aborted'
        events.add({ type: 'aborted', reason: abortReason })
      }
      onEnd(session)
    }
  })
  return session
}
