import { streamText, type LanguageModel, type ToolSet } from 'ai'
import { ensure, scoped, until, useAbortSignal, type Operation } from 'effection'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import { toExtendedMessages, toModelMessages } from './model-messages'

export interface ModelToolCall {
  id: string
  name: string
  input: unknown
}

export interface ModelStepResult {
  text: string
  toolCalls: ModelToolCall[]
  usage: { inputTokens: number; outputTokens: number }
}

/** A model call did not finish within its time: the turn ends with a `model_timeout` error. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError'
  constructor(timeoutMs: number) {
    super(`The model did not finish answering within ${formatSeconds(timeoutMs)}. Try again, or ask something shorter.`)
  }
}

/** One model call: streams its text as `text` events and collects the tools it calls. */
export function streamModelStep({
  model,
  system,
  messages,
  tools,
  maxOutputTokens,
  timeoutMs,
  emit,
}: {
  model: LanguageModel
  system: string
  messages: Message[]
  tools: ToolSet
  /** The output-token cap of this call. */
  maxOutputTokens?: number
  /** The whole call (first byte to last) fails with `ModelTimeoutError` after this long. */
  timeoutMs?: number
  emit(event: ChatEvent): void
}): Operation<ModelStepResult> {
  return scoped(function* () {
    const abortSignal = yield* useAbortSignal()
    const result = streamText({
      model,
      system,
      messages: toModelMessages(toExtendedMessages(messages)),
      tools,
      abortSignal,
      maxOutputTokens,
      timeout: timeoutMs,
      maxRetries: 0,
      // Failures arrive as 'error' parts below and become the turn's error event.
      onError: () => {},
    })
    const reader = result.fullStream.getReader()
    yield* ensure(function* () {
      try {
        yield* until(reader.cancel())
      } catch {
        // The stream already failed; there is nothing left to release.
      }
    })

    const step: ModelStepResult = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 } }
    while (true) {
      const next = yield* until(reader.read())
      if (next.done) return step
      const part = next.value
      switch (part.type) {
        case 'text-delta':
          if (part.text) {
            step.text += part.text
            emit({ type: 'text', content: part.text })
          }
          break
        case 'tool-call':
          step.toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input })
          break
        case 'finish':
          step.usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 }
          break
        case 'abort':
          // Not ours (our scope's signal would have halted us first): the call's own timeout.
          if (timeoutMs !== undefined && !abortSignal.aborted) throw new ModelTimeoutError(timeoutMs)
          throw new Error('The model call was aborted.')
        case 'error':
          if (timeoutMs !== undefined && isTimeout(part.error)) throw new ModelTimeoutError(timeoutMs)
          throw part.error instanceof Error ? part.error : new Error(String(part.error))
      }
    }
  })
}

/** The AI SDK aborts a call past its `timeout` with the signal's reason, a `TimeoutError` (or an `AbortError` around it). */
export function isTimeout(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return true
  }
  return false
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
