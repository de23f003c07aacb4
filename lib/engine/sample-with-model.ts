import { generateText, type LanguageModel, type ModelMessage } from 'ai'
import { scoped, until, useAbortSignal, type Operation } from 'effection'
import type { SampleRequest, SampleResult } from '../tools/types'

/** `ctx.sample` on the server: one call to the chat's own model, cancelled with its scope. */
export function sampleWithModel({ model, request }: { model: LanguageModel; request: SampleRequest }): Operation<SampleResult> {
  return scoped(function* () {
    const abortSignal = yield* useAbortSignal()
    const prompt: ModelMessage[] =
      request.messages ?? [{ role: 'user', content: request.prompt ?? '' }]
    const result = yield* until(
      generateText({
        model,
        system: request.system,
        messages: prompt,
        maxOutputTokens: request.maxTokens,
        abortSignal,
        maxRetries: 0,
      }),
    )
    return {
      text: result.text,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    }
  })
}
