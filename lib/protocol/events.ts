import type { Message } from './messages'
import type { Question } from './question'

export type SessionErrorCode = 'SESSION_NOT_FOUND' | 'SESSION_ABORTED' | 'INTERNAL_ERROR'
export type LogLevel = 'debug' | 'info' | 'warning' | 'error'

export interface ValidationIssue {
  path: string
  message: string
}

/**
 * Where a tool call goes when its tool is an external MCP server's: the server (its `mcp.json`
 * name), the tool's own name, and the MCP App that shows it (`_meta.ui.resourceUri`), if any.
 */
export interface ExternalToolOrigin {
  server: string
  tool: string
  uiResourceUri?: string
}

/** Every line of the NDJSON stream that `POST /api/chat` answers with. */
export type ChatEvent =
  | { type: 'text'; content: string }
  | {
      type: 'tool_calls'
      /** `title`: the call's short title for people, when its tool gives one (`.title()`): "NYC → LAX". */
      calls: Array<{ id: string; name: string; arguments: unknown; title?: string; external?: ExternalToolOrigin }>
    }
  | { type: 'tool_result'; id: string; name: string; content: string }
  | { type: 'tool_error'; id: string; name: string; message: string }
  /** A tool asks the person: the question as it travels (`questionSchema`, lib/protocol/question.ts). */
  | ({ type: 'plugin_elicit_request' } & Question)
  | { type: 'plugin_elicit_rejected'; sessionId: string; elicitId: string; message: string; issues?: ValidationIssue[] }
  | { type: 'plugin_progress'; sessionId: string; callId: string; message: string; progress?: number }
  | { type: 'plugin_log'; sessionId: string; callId: string; level: LogLevel; message: string }
  | { type: 'plugin_session_error'; sessionId: string; callId: string; error: SessionErrorCode; message: string }
  | { type: 'conversation_state'; messages: Message[] }
  | { type: 'complete'; text: string; usage?: { inputTokens?: number; outputTokens?: number } }
  | { type: 'error'; message: string; code: string }

export type ChatEventType = ChatEvent['type']
export type PluginElicitRequestEvent = Extract<ChatEvent, { type: 'plugin_elicit_request' }>
