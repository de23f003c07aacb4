import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingMessageNotificationParams,
  Progress,
  Tool,
} from '@modelcontextprotocol/client'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client'
import { createQueue, race, spawn, until, useAbortSignal, withResolvers, type Operation } from 'effection'
import { z } from 'zod'
import type { ExternalTool } from '../../engine/tool-registry'
import type { LogLevel } from '../../protocol/events'
import type { ExtendedMessage } from '../../tools/messages'
import type { AnyMcpTool, McpToolContext } from '../../tools/types'
import { encodeCallToolResult, ExternalResultError } from './call-result'
import { EXTERNAL_QUESTION, type FormQuestion, type SamplingQuestion, type UrlQuestion } from './external-questions'
import { FlatFormError, flatFormAnswerSchema, parseFlatForm } from './flat-form'
import type { ExternalCallChannel } from './server-connection'
import { visibleToModel } from '../tool-visibility'
import type { McpClients } from './use-mcp-clients'

/** How long one external call may take at most, waits for the user included (default 30 minutes). */
export const DEFAULT_EXTERNAL_CALL_TIMEOUT_MS = 30 * 60_000

const json = z.record(z.string(), z.unknown())

/** What an external tool asks the user, as the tool runtime checks it. */
export const externalQuestions = {
  [EXTERNAL_QUESTION.form]: {
    context: z.object({ server: z.string(), requestedSchema: json }),
    responseFor: ({ requestedSchema }: FormQuestion) => flatFormAnswerSchema(parseFlatForm(requestedSchema)),
  },
  [EXTERNAL_QUESTION.url]: { response: z.object({}), context: z.object({ server: z.string(), url: z.string() }) },
  [EXTERNAL_QUESTION.sampling]: { response: z.object({}), context: z.object({ server: z.string() }).loose() },
}

type Context = McpToolContext<typeof externalQuestions>

/** What reaches a call while it runs, in order. */
type CallEvent =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'log'; params: LoggingMessageNotificationParams }
  | { kind: 'elicit'; params: ElicitRequestParams; answer: Answer<ElicitResult> }
  | { kind: 'sample'; params: CreateMessageRequestParams; answer: Answer<CreateMessageResult> }
  | { kind: 'ended' }

interface Answer<T> {
  resolve(value: T): void
  reject(error: Error): void
}

/**
 * A server's tool as a tool of the chat (`<server>__<tool>`): called through the server's one
 * connection, it runs as a tool session like any other, so Stop, expiry, ownership and the
 * questions work unchanged. It is live-only: its session cannot be replayed (that would call
 * the server again). The server's questions become the user's forms, its sampling requests a
 * question to approve and then the chat's model, its progress and logs the card's.
 */
export function createExternalTool({
  name,
  server,
  tool,
  clients,
  callTimeoutMs = DEFAULT_EXTERNAL_CALL_TIMEOUT_MS,
}: {
  name: string
  server: string
  tool: Tool
  clients: McpClients
  callTimeoutMs?: number
}): ExternalTool {
  const mcpTool: AnyMcpTool = {
    kind: 'mcp-tool',
    name,
    description: tool.description ?? tool.title ?? '',
    parameters: json,
    elicits: externalQuestions,
    requires: { elicitation: false, sampling: false },
    limits: {},
    liveOnly: true,
    execute: (params: Record<string, unknown>, ctx: Context) => callExternalTool({ server, tool: tool.name, params, ctx, clients, callTimeoutMs }),
  }
  const uiResourceUri = uiResourceUriOf(tool)
  return {
    tool: mcpTool,
    description: mcpTool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    source: `mcp:${server}`,
    origin: { server, tool: tool.name, ...(uiResourceUri ? { uiResourceUri } : {}) },
    ...(visibleToModel(tool) ? {} : { appOnly: true }),
  }
}

/** `_meta.ui.resourceUri` (MCP Apps), or the older flat `_meta["ui/resourceUri"]`. */
export function uiResourceUriOf(tool: Tool): string | undefined {
  const meta = tool._meta as Record<string, unknown> | undefined
  const ui = meta?.ui as Record<string, unknown> | undefined
  const uri = ui?.resourceUri ?? meta?.['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined
}

/** How many times a call answered -32042 (URL elicitation required) is asked about and made again, at most. */
export const MAX_URL_ELICITATION_ROUNDS = 3

/** One external tool call: whom, what, and where its questions and reports go. */
interface ExternalCall {
  server: string
  tool: string
  params: Record<string, unknown>
  ctx: Context
  clients: McpClients
  callTimeoutMs: number
}

function* callExternalTool(call: ExternalCall): Operation<string> {
  const { server, tool, ctx } = call
  for (let round = 0; ; round++) {
    const outcome = yield* callOnce(call)
    // -32042: the server needs the person to open links first; each becomes a URL question, then the call is made again.
    const elicitations = urlElicitationsRequired(server, outcome)
    if (!elicitations) return resultOf(settled(outcome))
    if (round === MAX_URL_ELICITATION_ROUNDS) {
      throw new Error(
        `${server} still asks for links to be opened (-32042, URL elicitation required) after ${MAX_URL_ELICITATION_ROUNDS} rounds of them; the call was given up.`,
      )
    }
    for (const elicitation of elicitations) {
      const question: UrlQuestion = { server, url: elicitation.url }
      const answer = yield* ctx.elicit(EXTERNAL_QUESTION.url, { message: elicitation.message, ...question })
      if (answer.action !== 'accept') return resultOf(declined(server, tool, elicitation.url, answer.action))
    }
  }
}

/** One call to the server, its questions, progress and logs handled while it runs. */
function* callOnce({ server, tool, params, ctx, clients, callTimeoutMs }: ExternalCall): Operation<Settled> {
  const connection = clients.connection(server)
  const client = connection?.status === 'ready' ? connection.client : undefined
  if (!connection || !client) {
    throw new Error(`The MCP server "${server}" is ${connection?.status === 'starting' ? 'still starting' : `down${connection?.error ? `: ${connection.error}` : ''}`}.`)
  }
  const events = createQueue<CallEvent, never>()
  const open = new Set<Answer<unknown>>()
  const ask = <T>(make: (answer: Answer<T>) => CallEvent) =>
    new Promise<T>((resolve, reject) => {
      const answer: Answer<T> = {
        resolve: (value) => (open.delete(answer as Answer<unknown>), resolve(value)),
        reject: (error) => (open.delete(answer as Answer<unknown>), reject(error)),
      }
      open.add(answer as Answer<unknown>)
      events.add(make(answer))
    })
  const channel: ExternalCallChannel = {
    elicit: (request) => ask<ElicitResult>((answer) => ({ kind: 'elicit', params: request, answer })),
    sample: (request) => ask<CreateMessageResult>((answer) => ({ kind: 'sample', params: request, answer })),
    log: (entry) => events.add({ kind: 'log', params: entry }),
  }
  connection.calls.add(channel)
  try {
    // Halting this call (Stop, the session ending) aborts the request: the SDK sends notifications/cancelled.
    const signal = yield* useAbortSignal()
    const ended = withResolvers<void>('the external call to end')
    // The call's outcome as a value: a spawned task that threw would fail this one before it could say why.
    const call = yield* spawn(function* (): Operation<Settled> {
      try {
        const result = (yield* until(
          client.callTool(
            { name: tool, arguments: params },
            { signal, onprogress: (progress) => events.add({ kind: 'progress', progress }), timeout: callTimeoutMs, maxTotalTimeout: callTimeoutMs },
          ),
        )) as CallToolResult
        return { ok: true, result }
      } catch (error) {
        return { ok: false, error }
      } finally {
        ended.resolve()
        events.add({ kind: 'ended' })
      }
    })
    while (true) {
      const { value: event } = yield* events.next()
      switch (event.kind) {
        case 'ended':
          return yield* call
        case 'progress': {
          const { progress, total, message } = event.progress
          const fraction = total && total > 0 ? progress / total : undefined
          yield* ctx.notify(message ?? (total ? `${progress} of ${total}` : `${progress}`), fraction)
          break
        }
        case 'log':
          yield* ctx.log(logLevelOf(event.params.level), logTextOf(event.params))
          break
        case 'elicit':
          yield* answerElicitation({ server, ctx, params: event.params, answer: event.answer, ended: ended.operation })
          break
        case 'sample':
          yield* answerSampling({ server, ctx, params: event.params, answer: event.answer, ended: ended.operation })
          break
      }
    }
  } finally {
    connection.calls.delete(channel)
    for (const answer of open) answer.reject(new ProtocolError(ProtocolErrorCode.InternalError, 'The tool call this request belongs to has ended.'))
  }
}

type Settled = { ok: true; result: CallToolResult } | { ok: false; error: unknown }

/** The call's result, or its failure said for people. */
function settled(outcome: Settled): CallToolResult {
  if (outcome.ok) return outcome.result
  const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error)
  throw new Error(`The MCP server's answer could not be used: ${message.slice(0, 500)}`)
}

const urlElicitationRequiredData = z.object({
  elicitations: z
    .array(
      z.object({
        mode: z.literal('url'),
        elicitationId: z.string().min(1),
        url: z.string().refine(isWebUrl, 'not an http(s) URL'),
        message: z.string(),
      }),
    )
    .min(1)
    .max(10),
})

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * The links a call answered with -32042 (URL elicitation required) asks the person to open, or
 * undefined for any other outcome. Data the chat cannot use is a clear error, never a crash.
 */
function urlElicitationsRequired(server: string, outcome: Settled): z.infer<typeof urlElicitationRequiredData>['elicitations'] | undefined {
  if (outcome.ok || !(outcome.error instanceof ProtocolError) || outcome.error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined
  const parsed = urlElicitationRequiredData.safeParse(outcome.error.data)
  if (parsed.success) return parsed.data.elicitations
  const why = parsed.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ')
  throw new Error(
    `${server} asked for links to be opened (-32042, URL elicitation required), but its data.elicitations cannot be shown: ${why.slice(0, 500)}. Only url-mode elicitations with http(s) URLs can be.`,
  )
}

/** What the tool says when the person declines (or cancels) a link a -32042 asked for: the call was not made again. */
function declined(server: string, tool: string, url: string, action: 'decline' | 'cancel'): CallToolResult {
  const verb = action === 'decline' ? 'declined' : 'cancelled'
  return {
    content: [{ type: 'text', text: `The person ${verb} opening ${url}, which ${server} needs before ${tool} can run; ${tool} was not called again.` }],
    isError: true,
  }
}

function resultOf(result: CallToolResult): string {
  try {
    return encodeCallToolResult(result)
  } catch (error) {
    if (error instanceof ExternalResultError) throw new Error(error.message)
    throw error
  }
}

/** Wait for the user, unless the call ends first (the server gave up its question). */
function* whileRunning<T>(work: Operation<T>, ended: Operation<void>): Operation<T | undefined> {
  return yield* race([work, (function* () { yield* ended; return undefined })()])
}

function* answerElicitation({
  server,
  ctx,
  params,
  answer,
  ended,
}: {
  server: string
  ctx: Context
  params: ElicitRequestParams
  answer: Answer<ElicitResult>
  ended: Operation<void>
}): Operation<void> {
  if (params.mode === 'url') {
    const question: UrlQuestion = { server, url: params.url }
    const result = yield* whileRunning(ctx.elicit(EXTERNAL_QUESTION.url, { message: params.message, ...question }), ended)
    if (result) answer.resolve({ action: result.action })
    return
  }
  try {
    parseFlatForm(params.requestedSchema)
  } catch (error) {
    if (!(error instanceof FlatFormError)) throw error
    yield* ctx.log('error', `${server} asked for a form the chat cannot show: ${error.message}.`)
    answer.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, `The chat cannot show this form: ${error.message}.`))
    return
  }
  const question: FormQuestion = { server, requestedSchema: params.requestedSchema as Record<string, unknown> }
  const result = yield* whileRunning(ctx.elicit(EXTERNAL_QUESTION.form, { message: params.message, ...question }), ended)
  if (!result) return
  answer.resolve(result.action === 'accept' ? { action: 'accept', content: result.content as ElicitResult['content'] } : { action: result.action })
}

function* answerSampling({
  server,
  ctx,
  params,
  answer,
  ended,
}: {
  server: string
  ctx: Context
  params: CreateMessageRequestParams
  answer: Answer<CreateMessageResult>
  ended: Operation<void>
}): Operation<void> {
  const messages = params.messages.map((message) => ({ role: message.role, text: textOf(message.content) }))
  const question: SamplingQuestion = {
    server,
    messages,
    maxTokens: params.maxTokens,
    ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
  }
  const approval = yield* whileRunning(
    ctx.elicit(EXTERNAL_QUESTION.sampling, { message: `${server} asks the chat's model to answer. Approve this sampling request?`, ...question }),
    ended,
  )
  if (!approval) return
  if (approval.action !== 'accept') {
    answer.reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The user denied the sampling request.'))
    return
  }
  const sampled: ExtendedMessage[] = messages.map((message) => ({ role: message.role, content: message.text }))
  try {
    const result = yield* ctx.sample({
      messages: sampled,
      maxTokens: params.maxTokens,
      ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
    })
    yield* ctx.log('info', `The chat's model answered: ${result.text}`)
    answer.resolve({ model: 'elicit-chat', role: 'assistant', content: { type: 'text', text: result.text }, stopReason: 'endTurn' })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    yield* ctx.log('error', `The chat's model could not answer: ${message}`)
    answer.reject(new ProtocolError(ProtocolErrorCode.InternalError, `The model could not answer: ${message}`))
  }
}

function textOf(content: CreateMessageRequestParams['messages'][number]['content']): string {
  const blocks = Array.isArray(content) ? content : [content]
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n')
}

function logLevelOf(level: LoggingMessageNotificationParams['level']): LogLevel {
  if (level === 'debug') return 'debug'
  if (level === 'info' || level === 'notice') return 'info'
  if (level === 'warning') return 'warning'
  return 'error'
}

function logTextOf({ data, logger }: LoggingMessageNotificationParams): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data)
  return `${logger ? `${logger}: ` : ''}${text ?? ''}`.slice(0, 2_000)
}
