import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV3 } from '@ai-sdk/provider'

/** The model used when `OPENAI_MODEL` names none. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini'

/**
 * A model behind the OpenAI **chat completions** API (`/chat/completions`), which any
 * OpenAI-compatible server also speaks: Ollama, vLLM, LM Studio. `baseURL` defaults to
 * OpenAI's own (`https://api.openai.com/v1`).
 *
 * @example
 * const model = createOpenAIModel({ apiKey: 'ollama', baseURL: 'http://localhost:11434/v1', model: 'llama3.1' })
 */
export function createOpenAIModel({
  apiKey,
  baseURL,
  model = DEFAULT_OPENAI_MODEL,
}: {
  apiKey: string
  baseURL?: string
  model?: string
}): LanguageModelV3 {
  const provider = createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) })
  return provider.chat(model || DEFAULT_OPENAI_MODEL)
}
