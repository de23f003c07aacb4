import type { ExternalToolOrigin, LogLevel, ValidationIssue } from '../protocol/events'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { Question } from '../protocol/question'

// What the user sees of a chat: its entries (their messages, the assistant's text, the tool
// calls with their questions), as the chat reducer (chat-state.ts) keeps them.

export type ToolCallStatus = 'running' | 'awaiting_input' | 'completed' | 'failed' | 'cancelled' | 'stopped'

/**
 * - `waiting`: the plugin's handler runs in the browser, the user has not finished.
 * - `answered`: the handler returned its result; it goes out with the turn's other answers.
 * - `submitted`: sent to the server.
 * - `stopped`: the user stopped it (Stop, or the turn was interrupted).
 * - `closed`: the server no longer waits for it (the tool ended, or its session was lost).
 */
export type ElicitationStatus = 'waiting' | 'answered' | 'submitted' | 'stopped' | 'closed'

/**
 * A question in a tool card: the question itself, read once from its event, and what became of
 * it in this chat.
 */
export interface ElicitationEntry {
  /** The question as it travelled (its `plugin_elicit_request` without the `type`), and as its handler receives it. */
  question: Question
  /** Counts the requests for this elicitId from 1; a rejected answer brings a new attempt. */
  attempt: number
  status: ElicitationStatus
  /**
   * What the user answered the handler's renders, by render index (`null` for none): a flow of
   * several steps resumes from them after a reload. The answer the handler returned as it got it
   * (a question's component) is not here: it is the `result`.
   */
  answers: unknown[]
  /** What the handler returned: the answer that goes to the server. */
  result?: ElicitAnswer
  /** The server refused the last answer; shown until the user answers again. */
  rejection?: { message: string; issues?: ValidationIssue[] }
  /** The plugin's handler failed in the browser. */
  error?: string
}

export interface LogLine {
  level: LogLevel
  message: string
}

export interface UserEntry {
  kind: 'user'
  id: string
  text: string
}

export interface AssistantEntry {
  kind: 'assistant'
  id: string
  text: string
  streaming: boolean
}

export interface ToolCallEntry {
  kind: 'tool'
  id: string
  callId: string
  name: string
  arguments: unknown
  /** The call's short title, when its tool gives one. */
  title?: string
  status: ToolCallStatus
  progress?: { message: string; value?: number }
  logs: LogLine[]
  elicitations: ElicitationEntry[]
  /** Set when the tool is an external MCP server's: the server, the tool's own name, its MCP App. */
  external?: ExternalToolOrigin
  /** The tool's result: the text as received, and its JSON value when it parses (an external tool's: its `CallToolResult`). */
  result?: { text: string; value?: unknown }
  error?: string
}

export type DisplayEntry = UserEntry | AssistantEntry | ToolCallEntry
