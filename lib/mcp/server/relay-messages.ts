import type { InputRequest, JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/server'
import type { ReportingContext } from './call-reporter'

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
