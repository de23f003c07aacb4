import { generateText, type LanguageModel, type OutputInterface } from 'ai'
import { scoped, until, useAbortSignal, type Operation } from 'effection'
import type { ToolSampleRequest } from '../runtime/tool-client'
import type { SampleResult } from '../tools/types'
import { toModelMessages } from './model-messages'
import { formatSeconds, isTimeout } from './model-step'

/**
 * `ctx.sample` in the chat: one call to the chat's own model, cancelled with the scope that
 * asked (a halted branch aborts its request). With a schema, the model is asked for JSON
 * (`responseFormat`); the runtime parses and validates the text.
 */
export function sampleWithModel({
  model,
  request,
  timeoutMs,
  maxOutputTokens,
}: {
  model: LanguageModel
  request: ToolSampleRequest
  /** The call fails (the tool sees an error) after this long. */
  timeoutMs?: number
  /** The cap when the request names none, and the most it may name. */
  maxOutputTokens?: number
}): Operation<SampleResult> {
  return scoped(function* () {
    const abortSignal = yield* useAbortSignal()
    const tokens = request.maxTokens === undefined ? maxOutputTokens : Math.min(request.maxTokens, maxOutputTokens ?? Infinity)
    let result: Awaited<ReturnType<typeof generateText>>
    try {
      result = yield* until(
        generateText({
          model,
          system: request.system,
          messages: toModelMessages(request.messages),
          maxOutputTokens: tokens,
          output: request.schema ? jsonText(request.schema) : undefined,
          abortSignal,
          timeout: timeoutMs,
          maxRetries: 0,
          // Which tool asks: the offline model answers with that tool's skill; other providers ignore it.
          ...(request.toolName ? { providerOptions: { offline: { toolName: request.toolName } } } : {}),
        }),
      )
    } catch (error) {
      // An abort that is not our scope's (which would have halted us first) is the call's own timeout.
      if (timeoutMs !== undefined && !abortSignal.aborted && isTimeout(error)) throw new Error(`The model did not answer the sample within ${formatSeconds(timeoutMs)}.`)
      throw error
    }
    return {
      text: result.text,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    }
  })
}

/**
 * `sampleWithModel` bound to one model. Made once per server, not per turn: a closure made
 * inside a turn would keep the whole turn alive for as long as a session waits.
 */
export function createModelSampler(
  model: LanguageModel,
  limits: { timeoutMs?: number; maxOutputTokens?: number } = {},
): (request: ToolSampleRequest) => Operation<SampleResult> {
  return (request) => sampleWithModel({ model, request, ...limits })
}

/** Asks for JSON following the schema and leaves the text as it is, for the runtime to parse. */
function jsonText(schema: Record<string, unknown>): OutputInterface<string, undefined, undefined> {
  return {
    name: 'json',
    responseFormat: Promise.resolve({ type: 'json', schema: schema as never }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async () => undefined,
    createElementStreamTransform: () => undefined,
  }
}
