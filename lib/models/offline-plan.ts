import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider'
import { asksForTip, findTipDestination, isFlightRequest, isGreeting, parseFlightTrips } from './offline-intents'
import {
  announceTrips,
  askForRoute,
  bookingUnavailable,
  briefAnswer,
  describeCapabilities,
  travelTip,
} from './offline-replies'
import { lastUserText, type OfflineCall } from './offline-prompt'
import { summariseToolResult, type ToolResultInput } from './offline-tool-summaries'
import { planTicTacToeReply } from './offline-tictactoe'
import { planPickCardReply } from './offline-pick-card'
import { createStructuredValue } from './offline-structured'

/** The name of the tool the offline model calls on a booking request. */
export const BOOK_FLIGHT_TOOL = 'book_flight'

/** What the offline model will answer: text, then any tool calls (inputs as JSON strings). */
export interface OfflineReply {
  text: string
  toolCalls: Array<{ toolName: string; input: string }>
}

/**
 * Decide the offline model's answer to a call. Pure and deterministic: the same prompt
 * and tools always give the same reply (tool-call ids are added later, by the model).
 */
export function planOfflineReply({
  prompt,
  tools,
  toolChoice,
  responseFormat,
}: Pick<LanguageModelV3CallOptions, 'prompt' | 'tools' | 'toolChoice' | 'responseFormat'>): OfflineReply {
  // Asked for JSON (a structured `ctx.sample`): answer with a value of the requested shape.
  if (responseFormat?.type === 'json') {
    return textOnly(JSON.stringify(createStructuredValue({ schema: responseFormat.schema, prompt: lastUserText(prompt) })))
  }

  const results = trailingToolResults(prompt)
  if (results.length > 0) return { text: results.map(summariseToolResult).join('\n\n'), toolCalls: [] }

  const last = prompt.at(-1)
  const question = lastUserText(prompt)
  const toolNames = new Set((tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.name] : [])))

  const call: OfflineCall = { prompt, toolNames, canCallTools: toolChoice?.type !== 'none' }
  const played = planTicTacToeReply(call) ?? planPickCardReply(call)
  if (played) return played

  const trips = last?.role === 'user' ? parseFlightTrips(question) : []
  const canBook = toolNames.has(BOOK_FLIGHT_TOOL) && call.canCallTools
  if (trips.length > 0 && canBook) {
    return {
      text: announceTrips(trips),
      toolCalls: trips.map((trip) => ({ toolName: BOOK_FLIGHT_TOOL, input: JSON.stringify(trip) })),
    }
  }

  if (asksForTip(question)) return textOnly(travelTip(findTipDestination(question)))
  // Without tools this is a sampling request (a tool asking the model something): answer it.
  if (toolNames.size === 0 && question.trim() && !isGreeting(question)) return textOnly(briefAnswer(question))
  if (last?.role === 'user' && isFlightRequest(question)) {
    return textOnly(trips.length > 0 ? bookingUnavailable() : askForRoute())
  }
  return textOnly(describeCapabilities({ greeting: isGreeting(question), tools: toolNames }))
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

