import type { JSONValue, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider'
import { commentOnGame, isGameResult } from './offline-tictactoe'
import { commentOnPickCard, isPickCardResult } from './offline-pick-card'

/** A tool's result as the offline model sees it at the end of the prompt. */
export interface ToolResultInput {
  toolName: string
  output: LanguageModelV3ToolResultOutput
}

/**
 * One paragraph telling the user what a tool call came to: a booked ticket, a cancelled
 * booking, a failure, or whatever else the tool returned.
 *
 * @example
 * summariseToolResult({ toolName: 'book_flight', output: { type: 'text', value: 'Error: No seats left.' } })
 * // 'Sorry, the book_flight tool failed: No seats left.'
 */
export function summariseToolResult({ toolName, output }: ToolResultInput): string {
  switch (output.type) {
    case 'text':
      if (/^\s*error:/i.test(output.value)) return failure(toolName, output.value)
      return summariseValue(toolName, parseJsonText(output.value))
    case 'json':
      return summariseValue(toolName, output.value)
    case 'error-text':
      return failure(toolName, output.value)
    case 'error-json':
      return failure(toolName, JSON.stringify(output.value))
    case 'execution-denied':
      return `The ${toolName} tool was not run${output.reason ? `: ${output.reason}` : '.'}`
    case 'content': {
      const text = output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
      return summariseValue(toolName, parseJsonText(text))
    }
  }
}

function failure(toolName: string, message: string): string {
  const reason = message.replace(/^\s*error:\s*/i, '').trim() || 'no reason was given.'
  return `Sorry, the ${toolName} tool failed: ${reason}`
}

function summariseValue(toolName: string, value: JSONValue): string {
  if (isPickCardResult(toolName, value)) return commentOnPickCard(value)
  if (isRecord(value) && value.status === 'confirmed' && isRecord(value.flight)) return confirmedBooking(value, value.flight)
  if (isRecord(value) && value.status === 'cancelled') return cancelledBooking(value)
  if (isGameResult(value)) return commentOnGame(value)
  const shown = typeof value === 'string' ? value : JSON.stringify(value)
  return `The ${toolName} tool returned: ${shown.length > 300 ? `${shown.slice(0, 297)}…` : shown}`
}

function confirmedBooking(result: Record<string, unknown>, flight: Record<string, unknown>): string {
  const route = [flight.airline, flight.flightNumber].filter(Boolean).join(' ')
  const details = [
    `${route || 'Your flight'} from ${text(flight.from)} to ${text(flight.to)}`,
    flight.departure ? `departing ${text(flight.departure)}${flight.arrival ? ` (arriving ${text(flight.arrival)})` : ''}` : undefined,
    result.seat ? `seat **${text(result.seat)}**` : undefined,
    typeof (result.price ?? flight.price) === 'number' ? `**${dollars(Number(result.price ?? flight.price))}**` : undefined,
  ].filter(Boolean)
  const tip = typeof result.tip === 'string' && result.tip.trim() ? ` Travel tip: ${result.tip.trim()}` : ''
  return `Your flight is booked! Ticket **${text(result.ticketNumber)}** — ${details.join(', ')}.${tip}`
}

function cancelledBooking(result: Record<string, unknown>): string {
  const step = result.step === 'seat' ? 'seat selection' : result.step === 'flight' ? 'flight selection' : undefined
  const where = step ? ` — the booking was cancelled at the ${step} step` : ' — the booking was cancelled'
  return `Nothing was booked${where}, so no ticket was issued. Just ask again whenever you'd like to book a flight.`
}

function parseJsonText(value: string): JSONValue {
  if (!/^\s*[[{]/.test(value)) return value
  try {
    return JSON.parse(value) as JSONValue
  } catch {
    return value
  }
}

function isRecord(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '?'
}

function dollars(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`
}
