import { describe, expect, it } from 'vitest'
import { ModelTimeoutError } from '../engine'
import { createServerMetrics } from '../telemetry'
import { modelCallMetrics } from './model-call-metrics'

describe('modelCallMetrics', () => {
  it("counts a finished call's duration and tokens, and a failed one's duration and error by type, under the GenAI conventions' names", async () => {
    const metrics = createServerMetrics()
    const observe = modelCallMetrics(metrics, 'openai:gpt-4o-mini')
    observe({ seconds: 0.3, usage: { inputTokens: 1200, outputTokens: 40 } })
    observe({ seconds: 120, error: new ModelTimeoutError(120_000) })
    const text = await metrics.registry.metrics()
    const model = 'gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o-mini"'
    expect(text).toContain(`gen_ai_client_operation_duration_seconds_count{${model},error_type=""} 1`)
    expect(text).toContain(`gen_ai_client_operation_duration_seconds_count{${model},error_type="timeout"} 1`)
    expect(text).toContain(`gen_ai_client_token_usage_sum{${model},gen_ai_token_type="input"} 1200`)
    expect(text).toContain(`gen_ai_client_token_usage_sum{${model},gen_ai_token_type="output"} 40`)
    expect(text).toContain('elicit_model_errors_total{gen_ai_provider_name="openai",error_type="timeout"} 1')
  })

  it('names the offline model as its own provider and model', async () => {
    const metrics = createServerMetrics()
    modelCallMetrics(metrics, 'offline')({ seconds: 0.01, error: new TypeError('broken') })
    expect(await metrics.registry.metrics()).toContain('elicit_model_errors_total{gen_ai_provider_name="offline",error_type="TypeError"} 1')
  })
})
