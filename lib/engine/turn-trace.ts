import type { LanguageModelV3 } from '@ai-sdk/provider'
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type Tracer } from '@opentelemetry/api'
import type { PendingQuestion } from '../runtime/pending-question'
import type { SpanRef, ToolResume } from '../sessions'
import type { Message, ToolCall } from '../protocol/messages'
import type { DriveOutcome } from './drive-session'
import type { ModelStepResult } from './model-step'

/**
 * A turn's spans, by the OpenTelemetry GenAI semantic conventions (the latest, as
 * `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental` names them): the turn is one
 * `invoke_agent` span (`gen_ai.conversation.id`: the chat), a child of the request's span, with a
 * `chat {model}` span per model call and an `execute_tool {tool}` span per piece of a tool call.
 *
 * A tool that asks a person ends its span when it pauses, with the question (`elicit.question.*`:
 * the tool, the question's key and id; its context's values only with content capture on) and
 * `elicit.pause.reason`. The turn that brings the answer starts a new `execute_tool` span with the
 * same `gen_ai.tool.call.id`, linked to the paused one (kept with the session's record, so the link
 * survives a restart), marked `elicit.tool.resumed`, with `elicit.resume.from` (`memory`: the tool
 * waited in this process; `record`: its journal replayed) and `elicit.resume.replayed_entries`.
 * The person's thinking time is in no span.
 *
 * Only made when the server has a tracer (traces exported): without one the engine makes none.
 */
export interface TurnTrace {
  /** The turn's trace context (its `invoke_agent` span): the parent of what the turn does below it (`TraceParent`). */
  readonly context: Context
  /** A model call's span, ended by the first report of what came back (none: it was stopped). */
  /** `messages`: what the model was given (read only with content capture on). */
  modelCall(): (outcome: { step?: ModelStepResult; callIds?: readonly string[]; error?: unknown; messages?: () => readonly Message[] }) => void
  /** A new tool call's span: its reference goes with the session's record. */
  startTool(call: ToolCall): SpanRef
  /** A resumed tool call's span (`PluginSessionManager.answer`'s `traceResume`). */
  resumeTool(resume: ToolResume): SpanRef
  /** A tool call whose session will not run in this turn after all (lost, refused): its span ends. */
  dropTool(callId: string, why: string): void
  /** The tool call's piece in this turn ended: it waits for a person, or it ended. */
  settleTool(callId: string, outcome: DriveOutcome): void
  /** The turn is over; `errorCode` is the `error` event that ended it, if one did. */
  end(errorCode?: string): void
}

export interface TurnTraceOptions {
  tracer: Tracer
  model: LanguageModelV3
  /** The chat the turn belongs to, when it is kept on the server. */
  chatId?: string
  /** Contents (messages, answers, a question's context) on spans: only when opted in. */
  captureContent: boolean
  /** The request's context (its span, the incoming `traceparent`). */
  parent?: Context
}

const AGENT_NAME = 'elicit-chat'

export function startTurnTrace({ tracer, model, chatId, captureContent, parent = context.active() }: TurnTraceOptions): TurnTrace {
  const provider = model.provider.split('.')[0] || model.provider
  const agent = tracer.startSpan(
    `invoke_agent ${AGENT_NAME}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': AGENT_NAME,
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model.modelId,
        ...(chatId ? { 'gen_ai.conversation.id': chatId } : {}),
      },
    },
    parent,
  )
  const within = trace.setSpan(parent, agent)
  const tools = new Map<string, Span>()

  const toolSpan = (call: { id: string; name: string }, attributes: Attributes, links?: Link[]) => {
    const span = tracer.startSpan(
      `execute_tool ${call.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.name, 'gen_ai.tool.call.id': call.id, ...attributes },
        links,
      },
      within,
    )
    tools.set(call.id, span)
    const { traceId, spanId, traceFlags } = span.spanContext()
    return { traceId, spanId, traceFlags }
  }

  return {
    context: within,
    modelCall() {
      const span = tracer.startSpan(
        `chat ${model.modelId}`,
        { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model.modelId } },
        within,
      )
      let ended = false
      return ({ step, callIds, error, messages }) => {
        if (ended) return
        ended = true
        if (step) {
          span.setAttributes({
            'gen_ai.response.model': model.modelId,
            'gen_ai.usage.input_tokens': step.usage.inputTokens,
            'gen_ai.usage.output_tokens': step.usage.outputTokens,
            'gen_ai.response.finish_reasons': [step.finishReason],
          })
          if (captureContent) {
            if (messages) span.setAttribute('gen_ai.input.messages', JSON.stringify(messages().map(inputMessage)))
            span.setAttribute('gen_ai.output.messages', JSON.stringify([outputMessage(step, callIds)]))
          }
        }
        if (error !== undefined) failed(span, error)
        span.end()
      }
    },
    startTool: (call) => toolSpan({ id: call.id, name: call.function.name }, {}),
    resumeTool({ callId, toolName, paused, from, replayed }) {
      const links: Link[] = paused ? [{ context: { ...paused, isRemote: true }, attributes: { 'elicit.link.kind': 'resume' } }] : []
      return toolSpan({ id: callId, name: toolName }, { 'elicit.tool.resumed': true, 'elicit.resume.from': from, 'elicit.resume.replayed_entries': replayed }, links)
    },
    dropTool(callId, why) {
      const span = tools.get(callId)
      if (!span) return
      tools.delete(callId)
      span.setStatus({ code: SpanStatusCode.ERROR, message: why })
      span.setAttribute('error.type', 'not_run')
      span.end()
    },
    settleTool(callId, outcome) {
      const span = tools.get(callId)
      if (!span) return
      tools.delete(callId)
      switch (outcome.kind) {
        case 'waiting':
          span.setAttributes(pauseAttributes(span, outcome.request, captureContent))
          break
        case 'completed':
          if (captureContent) span.setAttribute('gen_ai.tool.call.result', outcome.content)
          break
        case 'failed':
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message })
          span.setAttribute('error.type', 'tool_error')
          break
        case 'aborted':
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.reason })
          span.setAttribute('error.type', 'aborted')
      }
      span.end()
    },
    end(errorCode) {
      // A tool still running when the turn ends (stopped, failed) ends its piece here.
      for (const span of tools.values()) {
        span.setAttribute('error.type', 'turn_ended')
        span.end()
      }
      tools.clear()
      if (errorCode) {
        agent.setStatus({ code: SpanStatusCode.ERROR, message: errorCode })
        agent.setAttribute('error.type', errorCode)
      }
      agent.end()
    },
  }
}

/** What a span says of a tool that waits for a person: the question, never its context's values unless opted in. */
function pauseAttributes(span: Span, question: PendingQuestion, captureContent: boolean): Attributes {
  span.addEvent('elicit.pause', { 'elicit.question.key': question.key })
  return {
    'elicit.tool.paused': true,
    'elicit.pause.reason': 'awaiting_user_input',
    'elicit.question.key': question.key,
    'elicit.question.id': question.elicitId,
    ...(captureContent ? { 'elicit.question.message': question.message, 'elicit.question.context': JSON.stringify(question.context) } : {}),
  }
}

/**
 * A message of the conversation in the conventions' shape (`gen_ai.input.messages`): its role and
 * its parts (text, the tool calls it makes, a tool's response), without the signature it travels with.
 */
function inputMessage(message: Message) {
  if (message.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }] }
  return {
    role: message.role,
    parts: [
      ...(message.content ? [{ type: 'text', content: message.content }] : []),
      ...(message.tool_calls ?? []).map((call) => ({ type: 'tool_call', id: call.id, name: call.function.name, arguments: parsedArguments(call.function.arguments) })),
    ],
  }
}

/** A tool call's arguments as the model gave them: JSON, else the text itself. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The model's answer in the conventions' shape, its tool calls under the ids this server issued for them (`callIds`, in order). */
function outputMessage(step: ModelStepResult, callIds?: readonly string[]) {
  return {
    role: 'assistant',
    parts: [
      ...(step.text ? [{ type: 'text', content: step.text }] : []),
      ...step.toolCalls.map((call, index) => ({ type: 'tool_call', id: callIds?.[index] ?? call.id, name: call.name, arguments: call.input })),
    ],
    finish_reason: step.finishReason,
  }
}

function failed(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : 'Error'
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
  span.setAttribute('error.type', type === 'ModelTimeoutError' ? 'timeout' : type)
}
