import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider'
import { namedToolCall } from './offline-named-call'
import { isGreeting, lastUserText, systemText } from './offline-prompt'
import { briefAnswer, describeCapabilities, toolUnavailable } from './offline-replies'
import { MAX_TOOL_CALLS_PER_STEP, type OfflineIntent, type OfflineSkill } from './offline-skill'
import { createStructuredValue } from './offline-structured'
import { summariseToolResult, type ToolResultInput } from './offline-tool-summaries'

/** What the offline model will answer: text, then any tool calls (inputs as JSON strings). */
export interface OfflineReply {
  text: string
  toolCalls: Array<{ toolName: string; input: string }>
}

/** The part of a call the offline model reads. */
export type OfflineCallOptions = Pick<LanguageModelV3CallOptions, 'prompt' | 'tools' | 'toolChoice' | 'responseFormat' | 'providerOptions'>

/**
 * Decide the offline model's answer to a call. Pure and deterministic: the same prompt,
 * tools and skills always give the same reply (tool-call ids are added later, by the model).
 *
 * - A sample a tool asked for (the engine names the tool in `providerOptions.offline.toolName`)
 *   is answered by that tool's skill, else briefly; a structured one with JSON of its schema.
 * - Tool results at the end of the prompt are summed up, each by its tool's skill.
 * - A message that names a tool on offer and its JSON arguments ("Call x__y with {…}") calls it.
 * - Otherwise the most confident skill's intent for the latest user message answers (calls
 *   capped at `MAX_TOOL_CALLS_PER_STEP`); with none, the model says what it can do.
 */
export function planOfflineReply({ options, skills }: { options: OfflineCallOptions; skills: readonly OfflineSkill[] }): OfflineReply {
  const { prompt, tools, toolChoice, responseFormat } = options
  const askingTool = sampledBy(options)
  const question = lastUserText(prompt)
  const asking = askingTool === undefined ? undefined : skills.find((skill) => skill.toolName === askingTool)

  if (responseFormat?.type === 'json') {
    const answer = asking?.answerSample?.({ system: systemText(prompt), text: question, prompt, schema: responseFormat.schema })
    return textOnly(answer ?? JSON.stringify(createStructuredValue({ schema: responseFormat.schema, prompt: question })))
  }
  if (askingTool !== undefined) {
    return textOnly(asking?.answerSample?.({ system: systemText(prompt), text: question, prompt }) ?? briefAnswer(question))
  }

  const results = trailingToolResults(prompt)
  if (results.length > 0) return textOnly(results.map((result) => summariseToolResult({ result, skills })).join('\n\n'))

  const toolNames = new Set((tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.name] : [])))
  const canCallTools = toolChoice?.type !== 'none'
  if (prompt.at(-1)?.role === 'user') {
    const named = canCallTools ? namedToolCall({ text: question, toolNames }) : undefined
    if (named) return { text: `Calling ${named.toolName}.`, toolCalls: [{ toolName: named.toolName, input: JSON.stringify(named.input) }] }
    const best = mostConfident({ skills, toolNames, request: { text: question, prompt, maxCalls: MAX_TOOL_CALLS_PER_STEP } })
    if (best) {
      const { skill, intent } = best
      if (intent.calls.length === 0) return textOnly(intent.text)
      if (!toolNames.has(skill.toolName) || !canCallTools) return textOnly(intent.unavailable ?? toolUnavailable(skill.toolName))
      return {
        text: intent.text,
        toolCalls: intent.calls.slice(0, MAX_TOOL_CALLS_PER_STEP).map((call) => ({ toolName: skill.toolName, input: JSON.stringify(call) })),
      }
    }
  }

  // No tools and no greeting: a plain question, answered briefly.
  if (toolNames.size === 0 && question.trim() && !isGreeting(question)) return textOnly(briefAnswer(question))
  const examples = skills.filter((skill) => toolNames.has(skill.toolName)).map((skill) => skill.example)
  // Tools on offer that no skill describes (another MCP server's): named, so the answer is the whole truth.
  const otherTools = [...toolNames].filter((name) => !skills.some((skill) => skill.toolName === name))
  return textOnly(describeCapabilities({ greeting: isGreeting(question), examples, otherTools }))
}

/** The tool whose `ctx.sample` this call is, as the engine marks it; undefined for a chat step. */
function sampledBy({ providerOptions }: OfflineCallOptions): string | undefined {
  const toolName = providerOptions?.offline?.toolName
  return typeof toolName === 'string' ? toolName : undefined
}

/**
 * The skill most sure that the message is for its tool. A tie goes to the skill whose tool is
 * on offer, then to the one listed first; a confidence outside (0, 1] is ignored.
 */
function mostConfident({
  skills,
  toolNames,
  request,
}: {
  skills: readonly OfflineSkill[]
  toolNames: ReadonlySet<string>
  request: Parameters<NonNullable<OfflineSkill['recognise']>>[0]
}): { skill: OfflineSkill; intent: OfflineIntent } | undefined {
  let best: { skill: OfflineSkill; intent: OfflineIntent; offered: boolean } | undefined
  for (const skill of skills) {
    const intent = skill.recognise?.(request)
    if (!intent || !(intent.confidence > 0 && intent.confidence <= 1)) continue
    const offered = toolNames.has(skill.toolName)
    if (!best || intent.confidence > best.intent.confidence || (intent.confidence === best.intent.confidence && offered && !best.offered)) {
      best = { skill, intent, offered }
    }
  }
  return best
}

function textOnly(text: string): OfflineReply {
  return { text, toolCalls: [] }
}

/** The results of the tool messages that end the prompt, in order. */
function trailingToolResults(prompt: LanguageModelV3Message[]): ToolResultInput[] {
  let start = prompt.length
  while (start > 0 && prompt[start - 1].role === 'tool') start--
  return prompt.slice(start).flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolName: part.toolName, output: part.output }] : []))
      : [],
  )
}
