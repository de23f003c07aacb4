import { withResolvers, type Operation } from 'effection'
import type { LogLevel } from '../protocol/events'
import { responseSchemaOf } from '../tools/elicits'
import { parseElicitId } from '../tools/elicit-id'
import type { BranchLimits } from '../tools/limits'
import type { ExtendedMessage } from '../tools/messages'
import type { AnyMcpTool, ElicitAnswer, SampleResult } from '../tools/types'
import { BridgeElicitRequest } from './bridge-elicit-request'
import { describeIssues, toIssues, type ValidationIssue } from './json-schema'
import { runTool } from './run-tool'
import type { ToolClient, ToolClientCapabilities, ToolLogEntry, ToolProgress, ToolSampleRequest } from './tool-client'

export { BridgeElicitRequest }

/** What a running tool reports to whoever drives it across requests. */
export type BridgeEvent =
  | { type: 'elicit'; request: BridgeElicitRequest }
  | { type: 'log'; seq: number; level: LogLevel; message: string }
  | { type: 'notify'; seq: number; message: string; progress?: number }

export type RespondOutcome =
  | { ok: true; result: ElicitAnswer<unknown> }
  | { ok: false; code: 'invalid_response'; message: string; issues: ValidationIssue[] }
  | { ok: false; code: 'elicit_already_answered' | 'elicit_mismatch' | 'session_not_waiting'; message: string }

export interface BridgeHost {
  /** The elicitation the tool is waiting on, if any. */
  pendingElicitation(): BridgeElicitRequest | undefined
  /** Whether a model call for the tool is in flight. */
  isSampling(): boolean
  /**
   * Answer the pending elicitation. The content of an accept is validated against the key's
   * schema first: an invalid answer never reaches the tool, which keeps waiting.
   */
  respondToElicit(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome
  /** What `respondToElicit` would do, without doing it. */
  checkResponse(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome
  /** Run the tool to its end. */
  run(): Operation<unknown>
}

interface Pending {
  request: BridgeElicitRequest
  resolve(result: ElicitAnswer<unknown>): void
}

export interface CreateBridgeHostOptions {
  tool: AnyMcpTool
  params: unknown
  callId: string
  emit(event: BridgeEvent): void
  /** `ctx.sample`: the chat's own model. */
  sample(request: ToolSampleRequest): Operation<SampleResult>
  limits?: BranchLimits
  parentMessages?: readonly ExtendedMessage[]
  parentSystemPrompt?: string
}

const CAPABILITIES: ToolClientCapabilities = { elicitation: true, sampling: true }

/**
 * The client a tool call has in the chat: elicitations wait for an answer from the browser
 * (which may come in a later request), logs and progress become events, sampling runs the
 * chat's model in the tool's own scope, so halting a branch halts its model call.
 */
export function createBridgeHost(options: CreateBridgeHostOptions): BridgeHost {
  return new ToolBridge(options)
}

// A class rather than closures: a waiting session keeps one of these, and methods on the
// prototype cost nothing per session (see the heap figures in `npm run bench`).
class ToolBridge implements BridgeHost, ToolClient {
  readonly capabilities = CAPABILITIES
  private readonly tool: AnyMcpTool
  private readonly callId: string
  private readonly emit: (event: BridgeEvent) => void
  private readonly sampler: (request: ToolSampleRequest) => Operation<SampleResult>
  /** What only the start needs; let go of once the tool runs. */
  private starting: CreateBridgeHostOptions | undefined
  private pending: Pending | undefined = undefined
  private samples = 0

  constructor(options: CreateBridgeHostOptions) {
    this.tool = options.tool
    this.callId = options.callId
    this.emit = options.emit
    this.sampler = options.sample
    this.starting = options
  }

  *elicit(request: BridgeElicitRequest): Operation<ElicitAnswer<unknown>> {
    const answer = withResolvers<ElicitAnswer<unknown>>()
    const waiting: Pending = { request, resolve: answer.resolve }
    this.pending = waiting
    try {
      this.emit({ type: 'elicit', request })
      return yield* answer.operation
    } finally {
      if (this.pending === waiting) this.pending = undefined
    }
  }

  *sample(request: ToolSampleRequest): Operation<SampleResult> {
    this.samples++
    try {
      return yield* this.sampler(request)
    } finally {
      this.samples--
    }
  }

  *log({ seq, level, message }: ToolLogEntry): Operation<void> {
    this.emit({ type: 'log', seq, level, message })
  }

  *notify({ seq, message, progress }: ToolProgress): Operation<void> {
    this.emit({ type: 'notify', seq, message, progress })
  }

  pendingElicitation(): BridgeElicitRequest | undefined {
    return this.pending?.request
  }

  isSampling(): boolean {
    return this.samples > 0
  }

  checkResponse(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome {
    const { pending, callId, tool } = this
    if (!pending) {
      return { ok: false, code: 'session_not_waiting', message: `Tool call ${callId} is not waiting for an answer.` }
    }
    if (pending.request.elicitId !== elicitId) {
      const named = parseElicitId(elicitId)
      const answered = named && named.callId === callId && named.seq < pending.request.id.seq
      return answered
        ? { ok: false, code: 'elicit_already_answered', message: `Elicitation ${elicitId} was already answered.` }
        : {
            ok: false,
            code: 'elicit_mismatch',
            message: `Elicitation ${elicitId} is not the one tool call ${callId} waits for (${pending.request.elicitId}).`,
          }
    }
    if (result.action !== 'accept') return { ok: true, result }
    const parsed = responseSchemaOf(tool.elicits[pending.request.key]!).safeParse(result.content)
    if (!parsed.success) {
      const issues = toIssues(parsed.error)
      return {
        ok: false,
        code: 'invalid_response',
        message: `The answer to '${pending.request.key}' is not valid: ${describeIssues(issues)}`,
        issues,
      }
    }
    return { ok: true, result: { action: 'accept', content: parsed.data } }
  }

  respondToElicit(elicitId: string, result: ElicitAnswer<unknown>): RespondOutcome {
    const outcome = this.checkResponse(elicitId, result)
    if (outcome.ok && this.pending) {
      // Cleared now, not when the tool resumes: a second answer in between must not apply.
      // The raw answer goes on: the runtime parses it (once) into what the tool receives.
      const { resolve } = this.pending
      this.pending = undefined
      resolve(result)
    }
    return outcome
  }

  run(): Operation<unknown> {
    if (!this.starting) throw new Error(`Tool call ${this.callId} was already started.`)
    const { tool, params, callId, limits, parentMessages, parentSystemPrompt } = this.starting
    this.starting = undefined
    return runTool({ tool, params, client: this, callId, limits, parentMessages, parentSystemPrompt })
  }
}
