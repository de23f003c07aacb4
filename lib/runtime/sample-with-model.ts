import type { JSONSchema7, LanguageModelV3 } from '@ai-sdk/provider'
import type { Operation } from 'effection'
import { formatSeconds, withModelDeadline } from '../models/model-deadline'
import { toModelMessages } from '../models/model-messages'
import { toModelPrompt } from '../models/model-prompt'
import type { SampleResult } from '../tools/types'
import type { ToolSampleRequest } from './tool-client'

/**
 * `ctx.sample` in the chat: one call to the chat's own model, cancelled with the scope that
 * asked (a halted branch aborts its request). With a schema, the model is asked for JSON
 * (`responseFormat`); the runtime parses and validates the text.
 *
 * It lives in the runtime, beside the `ToolClient.sample` port it fills, so that both the chat
 * engine and the MCP server hand it down to their tools without one importing the other.
 */
export function sampleWithModel({
  model,
  request,
  timeoutMs,
  maxOutputTokens,
}: {
  model: LanguageModelV3
  request: ToolSampleRequest
  /** The call fails (the tool sees an error) after this long. */
  timeoutMs?: number
  /** The cap when the request names none, and the most it may name. */
  maxOutputTokens?: number
}): Operation<SampleResult> {
  const tokens = request.maxTokens === undefined ? maxOutputTokens : Math.min(request.maxTokens, maxOutputTokens ?? Infinity)
  const timeoutError = () => new Error(`The model did not answer the sample within ${formatSeconds(timeoutMs!)}.`)
  return withModelDeadline(timeoutMs, timeoutError, function* ({ signal: abortSignal, wait }) {
    const result = yield* wait(
      model.doGenerate({
        prompt: toModelPrompt({ system: request.system, messages: toModelMessages(request.messages) }),
        maxOutputTokens: tokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
        // With a schema the model is asked for JSON; the runtime parses and validates the text.
        ...(request.schema ? { responseFormat: { type: 'json', schema: request.schema as JSONSchema7 } } : {}),
        abortSignal,
        // Which tool asks: the offline model answers with that tool's skill; other providers ignore it.
        ...(request.toolName ? { providerOptions: { offline: { toolName: request.toolName } } } : {}),
      }),
    )
    let text = ''
    for (const part of result.content) if (part.type === 'text') text += part.text
    return { text, usage: { inputTokens: result.usage.inputTokens.total, outputTokens: result.usage.outputTokens.total } }
  })
}

/**
 * `sampleWithModel` bound to one model. Made once per server, not per turn: a closure made
 * inside a turn would keep the whole turn alive for as long as a session waits.
 */
export function createModelSampler(
  model: LanguageModelV3,
  limits: { timeoutMs?: number; maxOutputTokens?: number } = {},
): (request: ToolSampleRequest) => Operation<SampleResult> {
  return (request) => sampleWithModel({ model, request, ...limits })
}
