import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingMessageNotificationParams,
  Progress,
  ServerCapabilities,
} from '@modelcontextprotocol/client'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client'
import { createQueue, race, spawn, until, useAbortSignal, withResolvers, type Operation } from 'effection'
import { context } from '@opentelemetry/api'
import { traceParent } from '../../runtime/trace-parent'
import type { LogLevel } from '../../protocol/events'
import type { ExtendedMessage } from '../../tools/sample-messages'
import { elicitationAppOf } from './app-elicitations'
import { EXTERNAL_QUESTION, type FormQuestion, type SamplingQuestion, type UrlQuestion } from './external-questions'
import { FlatFormError, parseFlatForm } from './flat-form'
import type { ExternalToolContext } from './question-specs'
import { RELATED_CALL } from './related-calls'
import type { ExternalCallChannel } from './server-connection'
import type { McpClients } from './use-mcp-clients'

type Context = ExternalToolContext

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

/** One external tool call: whom, what, and where its questions and reports go. */
export interface ExternalCall {
  server: string
  tool: string
  params: Record<string, unknown>
  ctx: Context
  clients: McpClients
  callTimeoutMs: number
  /** Whose call it is, for a server each person connects to on their own: their connection is used, nobody else's. */
  person?: string
}

/** The connection a call goes through: the server's one, or the person's own. */
export function connectionFor({ server, clients, person }: Pick<ExternalCall, 'server' | 'clients' | 'person'>) {
  return person === undefined ? clients.connection(server) : clients.runningPersonal(server, person)
}

/** How a call to the server ended: its result, or what it failed with. */
export type Settled = { ok: true; result: CallToolResult } | { ok: false; error: unknown }

/** One call to the server, its questions, progress and logs handled while it runs. */
export function* callOnce({ server, tool, params, ctx, clients, callTimeoutMs, person }: ExternalCall): Operation<Settled> {
  const connection = connectionFor({ server, clients, person })
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
  // Its id rides on the tools/call, and comes back on every request the server sends within it.
  const inFlight = connection.openCall(channel)
  try {
    // Halting this call (Stop, the session ending) aborts the request: the SDK sends notifications/cancelled.
    const signal = yield* useAbortSignal()
    const parent = yield* traceParent()
    const ended = withResolvers<void>('the external call to end')
    // The call's outcome as a value: a spawned task that threw would fail this one before it could say why.
    const call = yield* spawn(function* (): Operation<Settled> {
      try {
        const send = () =>
          client.callTool(
            { name: tool, arguments: params, _meta: { [RELATED_CALL]: inFlight.id } },
            { signal, onprogress: (progress) => events.add({ kind: 'progress', progress }), timeout: callTimeoutMs, maxTotalTimeout: callTimeoutMs },
          )
        // Traces on: the request goes out within the tool call's span, which its client span and `_meta.traceparent` continue.
        const result = (yield* until(parent ? context.with(parent, send) : send())) as CallToolResult
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
          yield* answerElicitation({ server, ctx, params: event.params, answer: event.answer, ended: ended.operation, offered: client.getServerCapabilities() })
          break
        case 'sample':
          yield* answerSampling({ server, ctx, params: event.params, answer: event.answer, ended: ended.operation })
          break
      }
    }
  } finally {
    inFlight.close()
    for (const answer of open) answer.reject(new ProtocolError(ProtocolErrorCode.InternalError, 'The tool call this request belongs to has ended.'))
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
  offered,
}: {
  server: string
  ctx: Context
  params: ElicitRequestParams
  answer: Answer<ElicitResult>
  ended: Operation<void>
  /** What the server advertised: app-rendered questions only if it offered them. */
  offered: ServerCapabilities | undefined
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
  // Its MCP App, when it names one: the browser shows the app, and the form if the app cannot answer.
  const app = elicitationAppOf(params, offered)
  const question: FormQuestion = { server, requestedSchema: params.requestedSchema as Record<string, unknown>, ...(app ? { app } : {}) }
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
