import type { InputRequest, JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/server'
import type { ReportingContext } from './call-reporter'
import type { RelayAnswer, RequestId } from './relayed-call'
import { RelayRequestIds } from './relay-request-ids'

/** Whether `message` is a response to a relay request, by its id's form (valid or forged: the relay's `answer` tells). */
export function isRelayAnswer(message: unknown): message is RelayAnswer {
  const response = message as { id?: unknown; method?: unknown } | null
  return typeof response === 'object' && response !== null && !('method' in response) && typeof response.id === 'string' && RelayRequestIds.looksLike(response.id)
}

/** `notifications/cancelled` naming a request. */
export interface Cancellation {
  method: 'notifications/cancelled'
  params: { requestId: RequestId; reason?: string }
}

/** Whether `message` is `notifications/cancelled` naming a request. */
export function isCancellation(message: unknown): message is Cancellation {
  const notification = message as { method?: unknown; params?: { requestId?: unknown } } | null
  const requestId = notification?.params?.requestId
  return notification?.method === 'notifications/cancelled' && (typeof requestId === 'string' || typeof requestId === 'number')
}

/** A question of a round as the request a 2025 client answers: a form elicitation says its mode, as the SDK's shim sends it. */
export function asClientRequest(request: InputRequest): { method: string; params?: unknown } {
  const { method, params } = request as { method: string; params?: Record<string, unknown> }
  if (method === 'elicitation/create' && params && params.mode === undefined) return { method, params: { ...params, mode: 'form' } }
  return { method, params }
}

const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']

/** The round's logs and progress as the notifications the SDK would send, collected in order (logs below the session's level left out). */
export function reportingTo(messages: JSONRPCMessage[], progressToken: string | number | undefined, level: LoggingLevel | undefined): ReportingContext {
  const mcpReq = {
    _meta: progressToken === undefined ? undefined : { progressToken },
    notify: async (notification: { method: string; params?: unknown }) => {
      messages.push({ jsonrpc: '2.0', ...notification } as JSONRPCMessage)
    },
    log: async (logLevel: LoggingLevel, data: unknown) => {
      if (level !== undefined && LEVELS.indexOf(logLevel) < LEVELS.indexOf(level)) return
      messages.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: logLevel, data } } as JSONRPCMessage)
    },
  }
  return { mcpReq } as unknown as ReportingContext
}
