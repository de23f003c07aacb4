import { ModelTimeoutError, type ModelCallReport } from '../engine'
import type { ServerMetrics } from '../telemetry'

/**
 * What the engine reports of each model call (`observeModelCall`), as the GenAI conventions'
 * metrics: its duration (with `error_type` when it failed), its input and output tokens when it
 * finished, and the failures counted by type. `modelName` is `selectChatModel`'s name: `offline`
 * or `openai:<model>`. A call the turn's Stop cut short is timed, and neither failed nor counted.
 */
export function modelCallMetrics(metrics: ServerMetrics, modelName: string): (report: ModelCallReport) => void {
  const [provider, model = provider] = modelName.split(':', 2) as [string, string?]
  const labels = { gen_ai_operation_name: 'chat', gen_ai_provider_name: provider, gen_ai_request_model: model }
  const input = { ...labels, gen_ai_token_type: 'input' }
  const output = { ...labels, gen_ai_token_type: 'output' }
  const succeeded = { ...labels, error_type: '' }
  return ({ seconds, usage, error }) => {
    if (error === undefined) {
      metrics.modelCallDuration.observe(succeeded, seconds)
      if (usage) {
        metrics.modelTokens.observe(input, usage.inputTokens)
        metrics.modelTokens.observe(output, usage.outputTokens)
      }
      return
    }
    const errorType = error instanceof ModelTimeoutError ? 'timeout' : error instanceof Error ? error.name : 'unknown'
    metrics.modelCallDuration.observe({ ...labels, error_type: errorType }, seconds)
    metrics.modelErrors.inc({ gen_ai_provider_name: provider, error_type: errorType })
  }
}
