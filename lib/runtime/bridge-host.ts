import { withResolvers, type Operation } from 'effection'
import type { LogLevel } from '../engine/events'
import { contextSchemaOf, responseSchemaOf, type ElicitsMap } from '../tools/elicits'
import { formatElicitId, parseElicitId } from '../tools/elicit-id'
import type { AnyMcpTool, ElicitId, ElicitResult, McpToolContext, SampleRequest, SampleResult } from '../tools/types'
import { BridgeElicitRequest } from './bridge-elicit-request'
import { describeIssues, toIssues, type ValidationIssue } from './json-schema'

export { BridgeElicitRequest }

/** What a running tool asks of whoever drives it. */
export type BridgeEvent =
  | { type: 'elicit'; request: BridgeElicitRequest }
  | {
      type: 'sample'
      seq: number
      request: SampleRequest
      resolve(result: SampleResult): void
      reject(error: Error): void
    }
  | { type: 'log'; seq: number; level: LogLevel; message: string }
  | { type: 'notify'; seq: number; message: string; progress?: number }

export type RespondOutcome =
  | { ok: true; result: ElicitResult<unknown> }
  | { ok: false; code: 'invalid_response'; message: string; issues: ValidationIssue[] }
  | { ok: false; code: 'elicit_already_answered' | 'elicit_mismatch' | 'session_not_waiting'; message: string }

export interface BridgeHost {
  /** The elicitation the tool is waiting on, if any. */
  pendingElicitation(): BridgeElicitRequest | undefined
  /**
   * Answer the pending elicitation. The content of an accept is validated against the key's
   * schema first: an invalid answer never reaches the tool, which keeps waiting.
   */
  respondToElicit(elicitId: string, result: ElicitResult<unknown>): RespondOutcome
  /** What `respondToElicit` would do, without doing it. */
  checkResponse(elicitId: string, result: ElicitResult<unknown>): RespondOutcome
  /** Run the tool to its end. */
  run(): Operation<unknown>
}

export class ToolUsageError extends Error {
  override name = 'ToolUsageError'
}

interface Pending {
  request: BridgeElicitRequest
  resolve(result: ElicitResult<unknown>): void
}

export interface CreateBridgeHostOptions {
  tool: AnyMcpTool
  params: unknown
  callId: string
  emit(event: BridgeEvent): void
}

/**
 * The host one tool call runs in: it gives the tool its `ctx`, turns each ctx call into a
 * numbered event for the driver, and suspends the tool until the answer comes back.
 */
export function createBridgeHost(options: CreateBridgeHostOptions): BridgeHost {
  return new ToolBridge(options)
}

// A class rather than closures: a waiting session keeps one of these, and methods on the
// prototype cost nothing per session (see the heap figures in `npm run bench`).
class ToolBridge implements BridgeHost {
  readonly toolName: string
  readonly callId: string
  private readonly tool: AnyMcpTool
  private readonly params: unknown
  private readonly emit: (event: BridgeEvent) => void
  private seq = 0
  private pending: Pending | undefined = undefined

  constructor({ tool, params, callId, emit }: CreateBridgeHostOptions) {
    this.tool = tool
    this.toolName = tool.name
    this.params = params
    this.callId = callId
    this.emit = emit
  }

  *elicit(key: string, options: { message: string }): Operation<ElicitResult<never>> {
    const { tool } = this
    // Own keys only: a key such as "toString" must not find Object.prototype's.
    const spec = Object.hasOwn(tool.elicits, key) ? tool.elicits[key] : undefined
    if (!spec) throw new ToolUsageError(`Tool "${tool.name}" called ctx.elicit('${key}'), which its .elicits() does not declare.`)
    if (this.pending) {
      throw new ToolUsageError(
        `Tool "${tool.name}" called ctx.elicit('${key}') while '${this.pending.request.key}' is still waiting: one elicitation at a time per tool call.`,
      )
    }
    const id: ElicitId = { toolName: tool.name, key, callId: this.callId, seq: ++this.seq }
    const { message, ...context } = options as { message: string } & Record<string, unknown>
    validateContext({ tool, key, contextSchema: contextSchemaOf(spec), context })
    const request = new BridgeElicitRequest(formatElicitId(id), id, message, context, responseSchemaOf(spec))
    const answer = withResolvers<ElicitResult<unknown>>()
    const waiting: Pending = { request, resolve: answer.resolve }
    this.pending = waiting
    try {
      this.emit({ type: 'elicit', request })
      return (yield* answer.operation) as ElicitResult<never>
    } finally {
      if (this.pending === waiting) this.pending = undefined
    }
  }

  *sample(request: SampleRequest): Operation<SampleResult> {
    const answer = withResolvers<SampleResult>()
    this.emit({ type: 'sample', seq: ++this.seq, request, resolve: answer.resolve, reject: answer.reject })
    return yield* answer.operation
  }

  *log(level: LogLevel, message: string): Operation<void> {
    this.emit({ type: 'log', seq: ++this.seq, level, message })
  }

  *notify(message: string, progress?: number): Operation<void> {
    this.emit({ type: 'notify', seq: ++this.seq, message, progress })
  }

  pendingElicitation(): BridgeElicitRequest | undefined {
    return this.pending?.request
  }

  checkResponse(elicitId: string, result: ElicitResult<unknown>): RespondOutcome {
    const { pending, callId } = this
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
    const parsed = responseSchemaOf(this.tool.elicits[pending.request.key]!).safeParse(result.content)
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

  respondToElicit(elicitId: string, result: ElicitResult<unknown>): RespondOutcome {
    const outcome = this.checkResponse(elicitId, result)
    if (outcome.ok && this.pending) {
      // Cleared now, not when the tool resumes: a second answer in between must not apply.
      const { resolve } = this.pending
      this.pending = undefined
      resolve(outcome.result)
    }
    return outcome
  }

  *run(): Operation<unknown> {
    const parsed = this.tool.parameters.safeParse(this.params)
    if (!parsed.success) {
      throw new ToolUsageError(`Invalid arguments for ${this.tool.name}: ${describeIssues(toIssues(parsed.error))}`)
    }
    return yield* this.tool.execute(parsed.data, this.context())
  }

  /** The tool's `ctx`, with bound methods so that `function* (params, { elicit })` works. */
  private context(): McpToolContext<ElicitsMap> {
    return {
      toolName: this.toolName,
      callId: this.callId,
      elicit: this.elicit.bind(this) as McpToolContext<ElicitsMap>['elicit'],
      sample: this.sample.bind(this),
      log: this.log.bind(this),
      notify: this.notify.bind(this),
    }
  }
}

/** The declared context schema is a check on the tool; the UI gets the tool's own objects. */
function validateContext({
  tool,
  key,
  contextSchema,
  context,
}: {
  tool: AnyMcpTool
  key: string
  contextSchema: ReturnType<typeof contextSchemaOf>
  context: Record<string, unknown>
}): void {
  if (!contextSchema) return
  const parsed = contextSchema.safeParse(context)
  if (!parsed.success) {
    throw new ToolUsageError(
      `Tool "${tool.name}" passed a context to ctx.elicit('${key}') that does not match its declared schema: ${describeIssues(toIssues(parsed.error))}`,
    )
  }
}
