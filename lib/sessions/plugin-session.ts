import { action, type Operation, type Scope, type Task } from 'effection'
import {
  createBridgeHost,
  type BridgeElicitRequest,
  type BridgeEvent,
  type BridgeHost,
  type CreateBridgeHostOptions,
  type RespondOutcome,
} from '../runtime/bridge-host'
import type { AnyMcpTool, ElicitAnswer } from '../tools/types'

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
  respondToElicit(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome
  checkResponse(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome
  /** The next event; the driver calls this until a terminal event or an `elicit`. */
  nextEvent(): Operation<PluginSessionEvent>
  abort(reason?: string): Operation<void>
}

/** How a tool call is run: the chat's model for sampling, limits, and where it was called from. */
export type PluginSessionRuntime = Pick<CreateBridgeHostOptions, 'sample' | 'limits' | 'parentMessages' | 'parentSystemPrompt'>

export interface StartPluginSessionOptions {
  /** The long-lived scope the tool runs in, so it outlives the request that started it. */
  scope: Scope
  tool: AnyMcpTool
  params: unknown
  callId: string
  clientId: string
  runtime: PluginSessionRuntime
  now: number
  /** Called once when the tool has ended, however it ended. */
  onEnd(session: PluginSession): void
}

const TERMINAL: ReadonlySet<PluginSessionStatus> = new Set(['completed', 'failed', 'aborted'])

export function isTerminal(status: PluginSessionStatus): boolean {
  return TERMINAL.has(status)
}

export function startPluginSession(options: StartPluginSessionOptions): PluginSession {
  return new RunningPluginSession(options)
}

// A class rather than closures: methods on the prototype cost nothing per waiting session.
class RunningPluginSession implements PluginSession {
  readonly id: string
  readonly callId: string
  readonly toolName: string
  readonly clientId: string
  readonly createdAt: number
  private state: Exclude<PluginSessionStatus, 'awaiting_sample'> = 'running'
  private abortReason = 'The tool call was aborted.'
  // The events not yet taken by a driver, and the driver waiting for one. Not an Effection
  // queue: a waiting session keeps this, and a queue's closures would cost more than the array.
  private readonly events: PluginSessionEvent[] = []
  private waiter: ((event: PluginSessionEvent) => void) | undefined = undefined
  private readonly host: BridgeHost
  private readonly task: Task<void>

  constructor({ scope, tool, params, callId, clientId, runtime, now, onEnd }: StartPluginSessionOptions) {
    this.id = callId
    this.callId = callId
    this.toolName = tool.name
    this.clientId = clientId
    this.createdAt = now
    this.host = createBridgeHost({ ...runtime, tool, params, callId, emit: (event) => this.receive(event) })
    const session = this
    this.task = scope.run(function* () {
      let settled = false
      try {
        const result = yield* session.host.run()
        settled = true
        session.settle({ type: 'completed', result })
      } catch (error) {
        settled = true
        session.settle({ type: 'failed', error: error instanceof Error ? error : new Error(String(error)) })
      } finally {
        if (!settled) session.settle({ type: 'aborted', reason: session.abortReason })
        onEnd(session)
      }
    })
  }

  status(): PluginSessionStatus {
    return this.state === 'running' && this.host.isSampling() ? 'awaiting_sample' : this.state
  }

  pendingElicitation(): BridgeElicitRequest | undefined {
    return this.state === 'awaiting_elicit' ? this.host.pendingElicitation() : undefined
  }

  checkResponse(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome {
    if (this.state === 'awaiting_elicit') return this.host.checkResponse(elicitId, result)
    return { ok: false, code: 'session_not_waiting', message: `Tool call ${this.callId} is not waiting for an answer (it is ${this.status()}).` }
  }

  respondToElicit(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome {
    if (this.state !== 'awaiting_elicit') return this.checkResponse(elicitId, result)
    const outcome = this.host.respondToElicit(elicitId, result)
    if (outcome.ok) this.state = 'running'
    return outcome
  }

  *nextEvent(): Operation<PluginSessionEvent> {
    const ready = this.events.shift()
    if (ready) return ready
    return yield* action<PluginSessionEvent>((resolve) => {
      this.waiter = resolve
      return () => {
        if (this.waiter === resolve) this.waiter = undefined
      }
    })
  }

  *abort(reason?: string): Operation<void> {
    if (isTerminal(this.state)) return
    if (reason) this.abortReason = reason
    yield* this.task.halt()
  }

  private receive(event: BridgeEvent): void {
    if (event.type === 'elicit') this.state = 'awaiting_elicit'
    this.deliver(event)
  }

  private deliver(event: PluginSessionEvent): void {
    const waiter = this.waiter
    if (waiter) {
      this.waiter = undefined
      waiter(event)
    } else {
      this.events.push(event)
    }
  }

  private settle(event: Extract<PluginSessionEvent, { type: 'completed' | 'failed' | 'aborted' }>): void {
    this.state = event.type
    this.deliver(event)
  }
}
