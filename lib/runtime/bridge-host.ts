import { withResolvers, type Operation } from 'effection'
import type { LogLevel } from '../engine/events'
import { contextSchemaOf, responseSchemaOf, type ElicitsMap } from '../tools/elicits'
import { formatElicitId, parseElicitId } from '../tools/elicit-id'
import { encodeModelContext } from '../tools/model-context'
import type { AnyMcpTool, ElicitId, ElicitResult, McpToolContext, SampleRequest, SampleResult } from '../tools/types'
import { describeIssues, toIssues, toJsonSchema, type ValidationIssue } from './json-schema'

/** An elicitation as it leaves the tool: identity, encoded message and schema. */
export interface BridgeElicitRequest {
  elicitId: string
  id: ElicitId
  key: string
  /** The message with the x-model-context section appended. */
  message: string
  /** The response's JSON Schema with `x-model-context`. */
  schema: Record<string, unknown>
}

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

/**
 * The host one tool call runs in: it gives the tool its `ctx`, turns each ctx call into a
 * numbered event for the driver, and suspends the tool until the answer comes back.
 */
export function createBridgeHost({
  tool,
  params,
  callId,
  emit,
}: {
  tool: AnyMcpTool
  params: unknown
  callId: string
  emit(event: BridgeEvent): void
}): BridgeHost {
  let seq = 0
  let pending: Pending | undefined

  const ctx: McpToolContext<ElicitsMap> = {
    toolName: tool.name,
    callId,
    *elicit(key, options) {
      const spec = tool.elicits[key]
      if (!spec) throw new ToolUsageError(`Tool "${tool.name}" called ctx.elicit('${key}'), which its .elicits() does not declare.`)
      if (pending) {
        throw new ToolUsageError(
          `Tool "${tool.name}" called ctx.elicit('${key}') while '${pending.request.key}' is still waiting: one elicitation at a time per tool call.`,
        )
      }
      const id: ElicitId = { toolName: tool.name, key, callId, seq: ++seq }
      const { message, ...rawContext } = options as { message: string } & Record<string, unknown>
      const context = parseContext({ tool, key, contextSchema: contextSchemaOf(spec), rawContext })
      const encoded = encodeModelContext({ message, schema: toJsonSchema(responseSchemaOf(spec)), context })
      const request: BridgeElicitRequest = { elicitId: formatElicitId(id), id, key, ...encoded }
      const answer = withResolvers<ElicitResult<unknown>>(`elicit ${request.elicitId}`)
      pending = { request, resolve: answer.resolve }
      try {
        emit({ type: 'elicit', request })
        return yield* answer.operation
      } finally {
        pending = undefined
      }
    },
    *sample(request) {
      const answer = withResolvers<SampleResult>(`sample ${tool.name}/${callId}`)
      emit({ type: 'sample', seq: ++seq, request, resolve: answer.resolve, reject: answer.reject })
      return yield* answer.operation
    },
    *log(level, message) {
      emit({ type: 'log', seq: ++seq, level, message })
    },
    *notify(message, progress) {
      emit({ type: 'notify', seq: ++seq, message, progress })
    },
  }

function checkResponse(elicitId: string, result: ElicitResult<unknown>): RespondOutcome {
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
    let accepted: ElicitResult<unknown> = result
    if (result.action === 'accept') {
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
      accepted = { action: 'accept', content: parsed.data }
    }
    return { ok: true, result: accepted }
  }

  return {
    pendingElicitation: () => pending?.request,
    checkResponse,
    respondToElicit(elicitId, result) {
      const outcome = checkResponse(elicitId, result)
      if (outcome.ok) pending?.resolve(outcome.result)
      return outcome
    },
    *run() {
      const parsed = tool.parameters.safeParse(params)
      if (!parsed.success) {
        throw new ToolUsageError(`Invalid arguments for ${tool.name}: ${describeIssues(toIssues(parsed.error))}`)
      }
      return yield* tool.execute(parsed.data, ctx)
    },
  }
}

function parseContext({
  tool,
  key,
  contextSchema,
  rawContext,
}: {
  tool: AnyMcpTool
  key: string
  contextSchema: ReturnType<typeof contextSchemaOf>
  rawContext: Record<string, unknown>
}): Record<string, unknown> {
  if (!contextSchema) return rawContext
  const parsed = contextSchema.safeParse(rawContext)
  if (!parsed.success) {
    throw new ToolUsageError(
      `Tool "${tool.name}" passed a context to ctx.elicit('${key}') that does not match its declared schema: ${describeIssues(toIssues(parsed.error))}`,
    )
  }
  return parsed.data as Record<string, unknown>
}
