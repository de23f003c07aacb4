import type { JSONValue, LanguageModelV3Message } from '@ai-sdk/provider'

/**
 * What one plugin teaches the offline model about its tool: how to hear a request for it,
 * how to answer the samples it asks for, how to sum up its result, and a phrase for the
 * "what can you do" reply. The offline model knows no tool by name; the composition root
 * hands it the skills of the plugins it serves (`createOfflineModel({ skills })`).
 *
 * @example
 * const echoSkill: OfflineSkill = {
 *   toolName: 'echo',
 *   example: 'repeat what you say (“Echo hello”)',
 *   recognise: ({ text }) => (/^echo\b/i.test(text) ? { confidence: 1, text: 'Echoing.', calls: [{ text: text.slice(5) }] } : undefined),
 * }
 */
export interface OfflineSkill<TArguments = Record<string, unknown>> {
  /** The tool this skill is about. */
  toolName: string
  /** What the assistant can do with the tool, with an example phrase: 'reserve a table (try “Reserve a table for two at 8”)'. */
  example: string
  /** How well the user's latest message asks for the tool; undefined when it does not. */
  recognise?(request: OfflineRequest): OfflineIntent<TArguments> | undefined
  /** The answer to a `ctx.sample` the skill's own tool made; undefined leaves it to a brief generic answer. */
  answerSample?(sample: OfflineSample): string | undefined
  /** One paragraph on a result of the tool (any JSON the tool returned); undefined for the generic summary. */
  summarise?(result: JSONValue): string | undefined
}

/** The user's latest message, as a skill's `recognise` sees it. */
export interface OfflineRequest {
  /** The message's text, at most `MAX_READ_CHARS` of it. */
  text: string
  /** The whole conversation, e.g. to know whether the tool was called before. */
  prompt: LanguageModelV3Message[]
  /** How many calls the reply may make; more are dropped. */
  maxCalls: number
}

/** What a skill would reply to a request: text, and the tool calls to make (their arguments). */
export interface OfflineIntent<TArguments = Record<string, unknown>> {
  /**
   * How sure the skill is, above 0 and at most 1: 1 when the message names the tool's own
   * subject ("a table", "a game of chess"), lower for a generic verb ("book", "reserve"). The
   * most confident skill answers; on a tie, the one whose tool is on offer, then the first listed.
   */
  confidence: number
  /** Streamed before the calls, or the whole reply when there are none (e.g. asking for what is missing). */
  text: string
  /** The arguments of each call to make, in order; [] to reply with text only. */
  calls: TArguments[]
  /** The reply when the tool cannot be called now (not on offer, or tool calls are off). */
  unavailable?: string
}

/** A sample a tool asked for (`ctx.sample`), as the asking tool's skill sees it. */
export interface OfflineSample {
  /** The system prompt, at most `MAX_READ_CHARS` of it. */
  system: string
  /** The last user message, at most `MAX_READ_CHARS` of it. */
  text: string
  prompt: LanguageModelV3Message[]
  /** The JSON Schema of the answer when the tool asked for structured output: answer with JSON text. */
  schema?: unknown
}

/** How much of a message the offline model reads: enough for any request, and bounded work for a huge one. */
export const MAX_READ_CHARS = 4096

/** The most tool calls the offline model makes in one step, however many a message asks for. */
export const MAX_TOOL_CALLS_PER_STEP = 8
