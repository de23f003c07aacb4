import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider'
import { planOfflineReply, type OfflineReply } from './offline-plan'
import type { OfflineSkill } from './offline-skill'
import { createPacedStream, thinkingPause, toAbortError } from './offline-stream'

const DEFAULT_DELAY_MS = 25
const WORDS_PER_DELTA = 3
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * The model the app runs without an API key: a real AI SDK `LanguageModelV3` that needs no
 * network. What it knows of tools comes from `skills` (each plugin's `offline.ts`): it calls
 * a tool when a skill hears a request for it, answers a tool's samples through that tool's
 * skill, sums up results, and otherwise says what it can do. It reads at most a few KB of any
 * message and makes at most `MAX_TOOL_CALLS_PER_STEP` calls per step. Everything but the
 * tool-call ids is deterministic; text streams in pieces `delayMs` apart, and a whole answer
 * (`doGenerate`) comes after one such pause (default: `OFFLINE_MODEL_DELAY_MS`, else 25 ms; 0
 * answers without any timer).
 *
 * @example
 * const { text } = await generateText({ model: createOfflineModel({ delayMs: 0, skills }), prompt: 'Hello' })
 */
export function createOfflineModel({
  delayMs = offlineDelayFromEnv(),
  skills = [],
}: { delayMs?: number; skills?: readonly OfflineSkill[] } = {}): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'offline',
    modelId: 'offline-assistant',
    supportedUrls: {},

    async doGenerate(options) {
      if (options.abortSignal?.aborted) throw toAbortError(options.abortSignal.reason)
      // A whole answer at once takes a model as long as its first piece would when streamed.
      if (delayMs > 0) await thinkingPause(delayMs, options.abortSignal)
      const reply = planOfflineReply({ options, skills })
      const content: LanguageModelV3Content[] = []
      if (reply.text) content.push({ type: 'text', text: reply.text })
      for (const call of reply.toolCalls) content.push({ type: 'tool-call', toolCallId: createToolCallId(), ...call })
      return { content, finishReason: finishReasonOf(reply), usage: usageOf(options, reply), warnings: [] }
    },

    async doStream(options) {
      const reply = planOfflineReply({ options, skills })
      return { stream: createPacedStream({ parts: streamParts(options, reply), delayMs, abortSignal: options.abortSignal }) }
    },
  }
}

/** The delay between streamed pieces configured by `OFFLINE_MODEL_DELAY_MS`, else 25 ms. */
export function offlineDelayFromEnv(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.OFFLINE_MODEL_DELAY_MS)
  return env.OFFLINE_MODEL_DELAY_MS?.trim() && Number.isFinite(value) && value >= 0 ? value : DEFAULT_DELAY_MS
}

function streamParts(options: LanguageModelV3CallOptions, reply: OfflineReply): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }]
  if (reply.text) {
    const id = 'text-0'
    parts.push({ type: 'text-start', id })
    for (const delta of splitIntoDeltas(reply.text)) parts.push({ type: 'text-delta', id, delta })
    parts.push({ type: 'text-end', id })
  }
  for (const call of reply.toolCalls) parts.push({ type: 'tool-call', toolCallId: createToolCallId(), ...call })
  parts.push({ type: 'finish', finishReason: finishReasonOf(reply), usage: usageOf(options, reply) })
  return parts
}

/** A few words per piece, whitespace kept, so the pieces join back into the text. */
function splitIntoDeltas(text: string): string[] {
  const words = text.match(/\s*\S+/g) ?? [text]
  const deltas: string[] = []
  for (let start = 0; start < words.length; start += WORDS_PER_DELTA) {
    deltas.push(words.slice(start, start + WORDS_PER_DELTA).join(''))
  }
  const trailing = /\s+$/.exec(text)?.[0]
  if (trailing) deltas.push(trailing)
  return deltas
}

function finishReasonOf(reply: OfflineReply): LanguageModelV3FinishReason {
  return reply.toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' }
}

/** Roughly four characters to a token, as with English text on real tokenizers. */
function usageOf(options: LanguageModelV3CallOptions, reply: OfflineReply): LanguageModelV3Usage {
  const promptChars = jsonLength(options.prompt) + toolsLength(options.tools)
  const inputTokens = Math.ceil(promptChars / 4)
  const textTokens = Math.ceil(reply.text.length / 4)
  const outputTokens = textTokens + reply.toolCalls.reduce((sum, call) => sum + Math.ceil((call.toolName.length + call.input.length) / 4), 0)
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: textTokens, reasoning: 0 },
  }
}

const toolLengths = new WeakMap<object, number>()

/** The tools' JSON length, once per tool list (the chat converts each tool set once). */
function toolsLength(tools: LanguageModelV3CallOptions['tools']): number {
  if (!tools) return 2
  let length = toolLengths.get(tools)
  if (length === undefined) toolLengths.set(tools, (length = jsonLength(tools)))
  return length
}

/** About the length of `JSON.stringify(value)`, counted without building the string (usage is an estimate). */
function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2
  if (value === null || typeof value !== 'object') return 4
  let length = 2
  if (Array.isArray(value)) {
    for (const item of value) length += jsonLength(item) + 1
    return length
  }
  for (const key in value) length += key.length + 4 + jsonLength((value as Record<string, unknown>)[key])
  return length
}

/**
 * `call_` and 24 random url-safe characters. Session ids are derived from tool-call ids,
 * so two chats must never get the same one: these come from the platform's CSPRNG.
 */
export function createToolCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  // 256 is a multiple of 64, so masking keeps every character equally likely.
  return `call_${Array.from(bytes, (byte) => ID_ALPHABET[byte & 63]).join('')}`
}
