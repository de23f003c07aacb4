import type { LanguageModelV3 } from '@ai-sdk/provider'
import { createOfflineModel, offlineDelayFromEnv } from './offline-model'
import type { OfflineSkill } from './offline-skill'
import { createOpenAIModel, DEFAULT_OPENAI_MODEL } from './openai-model'

/** The chat's model and a name to show for it (`offline`, or `openai:<model id>`). */
export interface ChatModelChoice {
  model: LanguageModelV3
  name: string
}

/**
 * The model the chat runs on: OpenAI-compatible when `OPENAI_API_KEY` is set (with
 * `OPENAI_BASE_URL` and `OPENAI_MODEL` when given), otherwise the offline model with the
 * plugins' `skills` (paced by `OFFLINE_MODEL_DELAY_MS`). Makes no network call.
 *
 * @example
 * const { model, name } = selectChatModel({ skills: offlineSkills }) // reads process.env
 */
export function selectChatModel({
  env = process.env,
  skills = [],
}: { env?: Record<string, string | undefined>; skills?: readonly OfflineSkill[] } = {}): ChatModelChoice {
  const apiKey = env.OPENAI_API_KEY?.trim()
  if (!apiKey) return { model: createOfflineModel({ delayMs: offlineDelayFromEnv(env), skills }), name: 'offline' }

  const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined
  return { model: createOpenAIModel({ apiKey, baseURL, model: modelId }), name: `openai:${modelId}` }
}
