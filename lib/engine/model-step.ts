import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { ToolSet } from 'ai'
import type { Operation } from 'effection'
import { formatSeconds, withModelDeadline } from '../models/model-deadline'
import { toFunctionTools } from '../models/model-tools'
import { toModelPrompt } from '../models/model-prompt'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import { toExtendedMessages, toModelMessages } from '../models/model-messages'

export interface ModelToolCall {
  id: string
  name: string
  input: unknown
}

export interface ModelStepResult {
  text: string
  toolCalls: ModelToolCall[]
  usage: { inputTokens: number; outputTokens: number }
  /** Why the model stopped (`stop`, `length`, `tool_calls`, `content_filter`, …; `unknown` when it did not say). */
  finishReason: string
}

/**
 * One model call as an observer hears of it, once it is over (`ChatServerOptions.observeModelCall`:
 * the server's metrics): how long it took, and its tokens when it finished, the error when it
 * failed (a `ModelTimeoutError` when out of time), neither when the turn was stopped during it.
 */
export interface ModelCallReport {
  seconds: number
  usage?: { inputTokens: number; outputTokens: number }
  error?: unknown
}

/** A model call did not finish within its time: the turn ends with a `model_timeout` error. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError'
  constructor(timeoutMs: number) {
    super(`The model did not finish answering within ${formatSeconds(timeoutMs)}. Try again, or ask something shorter.`)
  }
}

/**
 * One model call: streams its text as `text` events and collects the tools it calls.
 *
 * The model is called through its `LanguageModelV3` interface directly rather than through
 * `streamText`: the engine runs its own loop of steps and validates tool input itself, so all
 * `streamText` added was per-call work (a Zod parse of the whole prompt, telemetry spans, a
 * pipeline of transform streams) that a CPU profile showed costing more than the offline model.
 */
export function* streamModelStep(options: ModelStepOptions): Operation<ModelStepResult> {
  const { observe } = options
  if (!observe) return yield* callModel(options)
  const started = performance.now()
  let step: ModelStepResult | undefined
  let error: unknown
  try {
    step = yield* callModel(options)
    return step
  } catch (failure) {
    error = failure
    throw failure
  } finally {
    observe({ seconds: (performance.now() - started) / 1000, ...(step ? { usage: step.usage } : {}), ...(error !== undefined ? { error } : {}) })
  }
}

interface ModelStepOptions {
  model: LanguageModelV3
  system: string
  messages: Message[]
  tools: ToolSet
  /** The output-token cap of this call. */
  maxOutputTokens?: number
  /** The whole call (first byte to last) fails with `ModelTimeoutError` after this long. */
  timeoutMs?: number
  emit(event: ChatEvent): void
  /** Told of the call once it is over (`ModelCallReport`); nothing is timed without one. */
  observe?: (report: ModelCallReport) => void
}

function callModel({ model, system, messages, tools, maxOutputTokens, timeoutMs, emit }: ModelStepOptions): Operation<ModelStepResult> {
  return withModelDeadline(timeoutMs, () => new ModelTimeoutError(timeoutMs!), function* ({ signal: abortSignal, wait }) {
    const functionTools = yield* wait(toFunctionTools(tools))
    const { stream } = yield* wait(
      model.doStream({
        prompt: toModelPrompt({ system, messages: toModelMessages(toExtendedMessages(messages)) }),
        ...(functionTools.length > 0 ? { tools: functionTools, toolChoice: { type: 'auto' } } : {}),
        maxOutputTokens,
        abortSignal,
      }),
    )
    const reader = stream.getReader()
    const reading: StepReading = { live: true, done: false }
    try {
      return yield* wait(readStep(reader, emit, reading))
    } finally {
      reading.live = false
      // Stopped early (halted, timed out, failed): the model's stream is released.
      if (!reading.done) {
        try {
          yield* wait(reader.cancel())
        } catch {
          // The stream already failed; there is nothing left to release.
        }
      }
    }
  })
}

interface StepReading {
  /** False once the call has stopped: a part read after that is dropped, not emitted. */
  live: boolean
  /** True once the stream has ended. */
  done: boolean
}

/**
 * Reads a model's stream to its end in one promise, so the call waits once (one race against
 * its deadline, one Effection `until`) rather than once for every part: a reply streams in
 * many small deltas, and each wait cost more than the part it waited for.
 */
async function readStep(reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>, emit: (event: ChatEvent) => void, reading: StepReading): Promise<ModelStepResult> {
  const step: ModelStepResult = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'unknown' }
  while (true) {
    const next = await reader.read()
    if (next.done) {
      reading.done = true
      return step
    }
    if (!reading.live) return step
    const part = next.value
    switch (part.type) {
      case 'text-delta':
        if (part.delta) {
          step.text += part.delta
          emit({ type: 'text', content: part.delta })
        }
        break
      case 'tool-call':
        step.toolCalls.push({ id: part.toolCallId, name: part.toolName, input: parseToolInput(part.input) })
        break
      case 'finish':
        step.usage = { inputTokens: part.usage.inputTokens.total ?? 0, outputTokens: part.usage.outputTokens.total ?? 0 }
        step.finishReason = part.finishReason.unified.replace('-', '_')
        break
      case 'error':
        throw part.error instanceof Error ? part.error : new Error(typeof part.error === 'string' ? part.error : JSON.stringify(part.error))
    }
  }
}

/** A streamed tool call's input is JSON text; what does not parse is passed on as text, for the tool's validation to refuse. */
function parseToolInput(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
