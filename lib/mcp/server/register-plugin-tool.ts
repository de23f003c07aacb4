import { createHash, randomUUID } from 'node:crypto'
import {
  fromJsonSchema,
  inputRequired,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { race, sleep, type Operation, type Scope, type Task } from 'effection'
import { z } from 'zod'
import type { ToolSampleRequest } from '../../runtime/tool-client'
import type { AnyMcpTool, SampleResult } from '../../tools/types'
import { requestGone } from '../../http/request-gone'
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from '../mcp-apps-extension'
import { createCallReporter, type ReportingContext } from './call-reporter'
import type { HeldClaim, RoundClaim, RoundLedger } from '../../sessions/round-ledger'
import type { RoundState, RoundStateCodec } from './round-state'
import { runRound } from './run-round'

export interface PluginToolServing {
  /** The server's long-lived scope: rounds run in it, and halt with it. */
  scope: Scope
  codec: RoundStateCodec
  ledger: RoundLedger
  /** The app's own model, for `ctx.sample` when the client does not sample. */
  sample(request: ToolSampleRequest): Operation<SampleResult>
  /**
   * The `ui://<tool>/<key>` resource of the MCP App that answers question `key` of `toolName`,
   * when there is one. Attached to the question as `_meta.ui.resourceUri` only for a client
   * that negotiated app-rendered elicitations (see `showsApps`).
   */
  appFor?(toolName: string, key: string): string | undefined
}

/**
 * Serve a plugin tool on an MCP server. One handler serves both eras: each call is run in
 * rounds (see `runRound`), the questions of a round returned as `input_required` with the
 * journal sealed in `requestState`. A 2026-07-28 client answers them and retries; for a
 * 2025 session the SDK's shim turns them into real elicitation and sampling requests on the
 * call's stream and calls the handler again with the answers. Either way the call's logs and
 * progress are sent once each, its progress strictly increasing over all its rounds and
 * reaching its total before the result (see `createCallReporter`), whatever the tool reports.
 */
export function registerPluginTool(server: McpServer, tool: AnyMcpTool, serving: PluginToolServing): void {
  server.registerTool(
    tool.name,
    { description: tool.description, inputSchema: inputSchemaOf(tool) },
    (args: unknown, ctx: ServerContext) => callPluginTool({ server, tool, args, ctx, serving }),
  )
}

const inputSchemas = new WeakMap<AnyMcpTool, ReturnType<typeof fromJsonSchema>>()

/**
 * The tool's parameters as the JSON Schema clients see (input side: a parameter with a default
 * is optional). Made once per tool: every 2026-07-28 round builds a server, and compiling the
 * schema's validator each time would cost more than the round.
 */
function inputSchemaOf(tool: AnyMcpTool): ReturnType<typeof fromJsonSchema> {
  let schema = inputSchemas.get(tool)
  if (!schema) {
    schema = fromJsonSchema(z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as never)
    inputSchemas.set(tool, schema)
  }
  return schema
}

function callPluginTool({
  server,
  tool,
  args,
  ctx,
  serving,
}: {
  server: McpServer
  tool: AnyMcpTool
  args: unknown
  ctx: ServerContext
  serving: PluginToolServing
}): Promise<CallToolResult | InputRequiredResult> {
  return answerPluginRound({
    tool,
    args,
    state: ctx.mcpReq.requestState<RoundState>(),
    responses: ctx.mcpReq.inputResponses,
    // 2025: what `initialize` declared; 2026-07-28: what this request declares (the SDK fills it in from the request).
    capabilities: server.server.getClientCapabilities(),
    reporting: ctx,
    signal: ctx.mcpReq.signal,
    seal: (state) => serving.codec.mint(state, ctx),
    serving,
  })
}

/** One round of a plugin tool's call, as the SDK's handler (2026-07-28) or the 2025 relay (call-relay.ts) presents it. */
export interface PluginRound {
  tool: AnyMcpTool
  args: unknown
  /** The verified state the client presented, if any (undefined: the call's first round). */
  state: RoundState | undefined
  /** The client's answers to the previous round's `inputRequests`. */
  responses: Record<string, unknown> | undefined
  /** What the client declared it can do. */
  capabilities: ClientCapabilities | undefined
  /** Where the round's logs and progress go (`ctx`, or the relay's collector), with the call's `progressToken`. */
  reporting: ReportingContext
  /** Aborted when nobody waits for the round's answer: its state is left free to present again. */
  signal: AbortSignal
  /** The next round's state, sealed for the caller. */
  seal(state: Omit<RoundState, 'id'>): Promise<string>
  serving: PluginToolServing
  /**
   * The round is run again because its runner is presumed dead (the 2025 relay took its call
   * over, call-relay.ts): a claim of its state still held is waited out — until it is answered
   * (its runner was alive after all: its answer is this round's) or its lease passes (it was
   * not: the claim is taken over) — instead of refused.
   */
  takingOver?: boolean
}

/**
 * A round of a plugin tool's call: the tool run from the state's journal with the answers,
 * until its result or its next questions (`input_required`, with the next state sealed).
 */
export async function answerPluginRound({ tool, args, state, responses, capabilities, reporting, signal, seal, serving, takingOver = false }: PluginRound): Promise<CallToolResult | InputRequiredResult> {
  const { scope, ledger } = serving
  const argumentsDigest = createHash('sha256').update(JSON.stringify(args ?? {})).digest('base64url')
  // A state continues the call it was minted for: the same tool, with the same arguments.
  if (state !== undefined && (typeof state !== 'object' || state.toolName !== tool.name || state.argumentsDigest !== argumentsDigest)) {
    return failed(`This requestState belongs to another call than ${tool.name} with these arguments; start the call again without it.`)
  }
  const callId = state?.callId ?? `mcp_${randomUUID()}`

  // The state is claimed only when the round is about to do what must not be done twice (see
  // `runRound`): a round that replays and asks again writes nothing. The claim is a lease, renewed
  // while the round runs (`renewing`) and ended by the round's answer.
  let claim: RoundClaim | undefined
  let held: HeldClaim | undefined
  let renewing: Task<void> | undefined
  function* beforeEffect(): Operation<RoundClaim | undefined> {
    if (!state || claim) return undefined
    const stateId = state.id
    claim = yield* ledger.claim({ stateId, toolName: tool.name })
    while (takingOver && claim.kind === 'running' && claim.runningUntil !== undefined) {
      // A deadline, not a poll: the claim is read again when its lease ends, unless renewed.
      yield* sleep(Math.max(0, claim.runningUntil - Date.now()))
      claim = yield* ledger.claim({ stateId, toolName: tool.name })
    }
    // Claimed by an earlier presentation of this state: the round stops here.
    if (claim.kind !== 'claimed') return claim
    const claimed = ledger.hold({ stateId, toolName: tool.name, version: claim.version, scope })
    held = claimed
    renewing = scope.run(() => claimed.keep())
    return undefined
  }

  const reports = createCallReporter(reporting, { reported: state?.reported ?? 0, progress: state?.progress })
  const round = runRound({
    tool,
    params: args,
    callId,
    journal: state?.journal ?? [],
    responses,
    clientSamples: Boolean(capabilities?.sampling),
    sample: serving.sample,
    emit: reports.emit,
    beforeEffect,
    ...(serving.appFor && showsApps(capabilities) ? { appFor: (key: string) => serving.appFor!(tool.name, key) } : {}),
  })

  let result: CallToolResult | InputRequiredResult
  try {
    // The request going away (a client's cancellation, a dropped connection) ends the round from
    // inside its task: the tool is halted before the task returns, and this await sees every end.
    const outcome = await scope.run(() => race([round, gone(signal)]))
    if (outcome === REQUEST_GONE) throw new Error('The request was cancelled before the round ended.')
    if (outcome.kind === 'stopped') {
      // Presented again: the answer it got the first time, or a refusal while that round still runs.
      const taken = outcome.reason as Exclude<RoundClaim, { kind: 'claimed' }>
      if (taken.kind === 'answered') return taken.result as CallToolResult | InputRequiredResult
      return failed('This round of the tool call is already being answered elsewhere; wait for its result.')
    }
    if (outcome.kind === 'complete') {
      result = toolResult(outcome.result)
      reports.end('Done')
    } else if (outcome.kind === 'failed') {
      result = failed(outcome.message)
      reports.end('Failed')
    } else if (asksForms(outcome.inputRequests) && !showsForms(capabilities)) {
      result = failed(CANNOT_ASK)
      reports.end('Failed')
    } else {
      const minted = { toolName: tool.name, callId, argumentsDigest, journal: outcome.journal, ...reports.reports() }
      result = inputRequired({ inputRequests: outcome.inputRequests, requestState: await seal(minted) })
    }
  } catch (error) {
    if (signal.aborted) {
      // Nobody got an answer: the state stays free for the client to present again.
      if (held) await held.release()
      throw error
    }
    result = failed(error instanceof Error ? error.message : String(error))
    reports.end('Failed')
  } finally {
    await renewing?.halt()
    await reports.sent()
  }
  // Set inside the round, which TypeScript's narrowing does not follow.
  const claimed = held as HeldClaim | undefined
  if (claimed) await claimed.answer(result)
  return result
}

const REQUEST_GONE = Symbol('request gone')

/** `REQUEST_GONE` once nobody waits for the round's answer. */
function* gone(signal: AbortSignal): Operation<typeof REQUEST_GONE> {
  yield* requestGone(signal)
  return REQUEST_GONE
}

/** A tool's result when it needs to ask its user something and the client declared no way to show a question. */
export const CANNOT_ASK = 'This tool needs to ask you questions; your client cannot show them.'

function asksForms(inputRequests: Record<string, InputRequest>): boolean {
  return Object.values(inputRequests).some((request) => request.method === 'elicitation/create')
}

/** Whether a client shows form-mode elicitations: it declared `elicitation.form`, or a bare `elicitation` (2025-06-18's forms). */
function showsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined)
}

/**
 * Whether a client shows a question's MCP App in place of its form, as SEP-3118 asks: it
 * declared form elicitation, and `extensions["io.modelcontextprotocol/ui"]` with an
 * `elicitation` member and `mimeTypes` listing `text/html;profile=mcp-app` (2025: in
 * `initialize`; 2026-07-28: in this request's capabilities). Any other client never sees `_meta.ui`.
 */
function showsApps(capabilities: ClientCapabilities | undefined): boolean {
  const extension = capabilities?.extensions?.[MCP_APPS_EXTENSION] as { elicitation?: unknown; mimeTypes?: unknown } | undefined
  const elicitation = extension?.elicitation
  return (
    showsForms(capabilities) &&
    typeof elicitation === 'object' &&
    elicitation !== null &&
    Array.isArray(extension?.mimeTypes) &&
    extension.mimeTypes.includes(MCP_APP_MIME_TYPE)
  )
}

export function failed(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/** A tool's result for MCP: the JSON as structured content, and as text for clients that read only text. */
function toolResult(value: unknown): CallToolResult {
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value }
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured }
}
