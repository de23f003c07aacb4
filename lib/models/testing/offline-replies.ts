import type { JSONValue, LanguageModelV3Message } from '@ai-sdk/provider'
import { planOfflineReply, type OfflineReply } from '../offline-plan'
import type { OfflineSkill } from '../offline-skill'

/**
 * The offline model's decisions, one call each, for testing a skill without a chat server.
 * Each goes through the same planner the model uses, with the skills given.
 */

/**
 * What the offline model replies to a user's message, with these tools on offer (default:
 * every skill's tool). `before` is the conversation before it.
 *
 * @example
 * offlineReplyTo({ skills: [greetOffline], text: 'Say hello to Ada' }).toolCalls
 * // [{ toolName: 'greet', input: '{"name":"Ada"}' }]
 */
export function offlineReplyTo({
  skills,
  text,
  tools = skills.map((skill) => skill.toolName),
  toolsOff = false,
  before = [],
}: {
  skills: readonly OfflineSkill[]
  text: string
  tools?: readonly string[]
  /** `toolChoice: none`: the model may not call tools. */
  toolsOff?: boolean
  before?: LanguageModelV3Message[]
}): OfflineReply {
  return planOfflineReply({
    skills,
    options: {
      prompt: [...before, { role: 'user', content: [{ type: 'text', text }] }],
      tools: tools.map((name) => ({ type: 'function', name, inputSchema: { type: 'object' } })),
      ...(toolsOff ? { toolChoice: { type: 'none' } } : {}),
    },
  })
}

/** The offline model's answer to a `ctx.sample` made by `toolName`: its text, or JSON text with a `schema`. */
export function offlineSampleAnswer({
  skills,
  toolName,
  prompt,
  system,
  schema,
}: {
  skills: readonly OfflineSkill[]
  toolName: string
  prompt: string
  system?: string
  schema?: Record<string, unknown>
}): string {
  return planOfflineReply({
    skills,
    options: {
      prompt: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: [{ type: 'text', text: prompt }] }],
      providerOptions: { offline: { toolName } },
      ...(schema ? { responseFormat: { type: 'json' as const, schema: schema as never } } : {}),
    },
  }).text
}

/** What the offline model says after `toolName` returned `result`. */
export function offlineSummaryOf({ skills, toolName, result }: { skills: readonly OfflineSkill[]; toolName: string; result: JSONValue }): string {
  return planOfflineReply({
    skills,
    options: {
      prompt: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_test', toolName, input: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_test', toolName, output: { type: 'json', value: result } }] },
      ],
    },
  }).text
}
