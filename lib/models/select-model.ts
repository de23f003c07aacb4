import type { LanguageModelV3 } from '@ai-sdk/provider'
import { createOfflineModel, offlineDelayFromEnv } from './offline-model'
import { createOpenAIModel, DEFAULT_OPENAI_MODEL } from './openai-model'

/** The chat's model and a name to show for it (`offline`, or `openai:<model id>`). */
export interface ChatModelChoice {
  model: LanguageModelV3
  name: string
}

/**
 * The model the chat runs on: OpenAI-compatible when `OPENAI_API_KEY` is set (with
 * `OPENAI_BASE_URL` and `OPENAI_MODEL` when given), otherwise the offline model
 * (paced by `OFFLINE_MODEL_DELAY_MS`). Makes no network call.
 *
 * @example
 * const { model, name } = selectChatModel() // reads process.env
 */
export function selectChatModel(env: Record<string, string | undefined> = process.env): ChatModelChoice {
  const apiKey = env.OPENAI_API_KEY?.trim()
  if (!apiKey) return { model: createOfflineModel({ delayMs: offlineDelayFromEnv(env) }), name: 'offline' }

  const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined
  return { model: createOpenAIModel({ apiKey, baseURL, model: modelId }), name: `openai:${modelId}` }
}
