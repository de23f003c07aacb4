import type { ChatEvent, SessionErrorCode } from '../protocol/events'
import type { Message } from '../protocol/messages'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { EndedCallEvent } from '../protocol/ended-call'
import type { DisplayEntry, ElicitationEntry, ToolCallStatus } from './display-entries'
import {
  appendText,
  closeElicitations,
  endAssistantText,
  mapElicitations,
  OPEN,
  updateElicitation,
  updateExistingTool,
  updateTool,
} from './entry-updates'

export type ChatStatus = 'idle' | 'streaming' | 'awaiting_input' | 'error'
/** The request in flight. */
export interface TurnState {
  kind: 'message' | 'responses' | 'abort'
  /** Assistant text streamed since the last conversation_state. */
  text: string
  textReceived: boolean
  receivedState: boolean
  /** The elicitations a `responses` request answers. */
  elicitIds: string[]
}

export interface ChatState {
  /** The conversation: the last conversation_state, plus the user's new message while a turn runs. */
  messages: Message[]
  /** What the user sees. */
  entries: DisplayEntry[]
  status: ChatStatus
  error?: string
  /**
   * The last message was refused because today's model budget is spent (`budget_exhausted`):
   * when it resets (ISO time) and the refused text, which goes back to the composer. Shown
   * calmly instead of `error`; cleared by the next send.
   */
  budgetSpent?: { resetsAt: string; text: string }
  turn?: TurnState
}

export type LocalAction =
  | { type: 'local/send'; text: string }
  /**
   * The user answered a render of a handler that goes on to another (a flow of several steps):
   * its answers so far, by render index, so that a reload resumes at the same step.
   */
  | { type: 'local/answer'; elicitId: string; attempt: number; answers: unknown[] }
  /**
   * The question has its answer: the handler returned `result`. Its last render's answer, when
   * the handler returned just that (a question's component), is not in `answers` again: it is
   * the result. When no question is left waiting and nothing is in flight, the answers go out.
   */
  | { type: 'local/answered'; elicitId: string; attempt: number; answers: unknown[]; result: ElicitAnswer; error?: string }
  | { type: 'local/stop_sessions'; sessionIds: string[] }
  | { type: 'local/abort_start'; sessionId: string }
  /** The stream ended. */
  | { type: 'local/stream_end' }
  /** The stream was cut: the user stopped it, the network failed, or the page reloaded. */
  | { type: 'local/interrupted'; reason: string; error?: string }
  /**
   * The user stopped a request that the server had refused (busy) and was waiting to be sent
   * again: the server started nothing. Ends as a stopped turn; answers it carried were not
   * taken, so their tools are stopped.
   */
  | { type: 'local/not_sent'; reason: string }
  /** The request failed before any event (a non-200 answer, or no connection). */
  | { type: 'local/request_failed'; message: string; budgetResetsAt?: string }
  /** The browser would not send what the user typed (a slash command that cannot be made). */
  | { type: 'local/refused'; message: string }
  /**
   * A call the chat showed waiting ended without a turn of this page (an operator ended it, its
   * idle time-out did): the event its next turn would stream, from the chat as read or from the
   * chat's waiting stream. Read as that event, then the chat waits for what is still open.
   */
  | { type: 'local/call_ended'; event: EndedCallEvent }

export type ChatAction = ChatEvent | LocalAction

export const initialChatState: ChatState = { messages: [], entries: [], status: 'idle' }

const MAX_LOG_LINES = 200
const STICKY: readonly ToolCallStatus[] = ['stopped', 'cancelled']

/** Every elicitation in the chat, in order. */
export function allElicitations(state: ChatState): ElicitationEntry[] {
  return state.entries.flatMap((entry) => (entry.kind === 'tool' ? entry.elicitations : []))
}

/** Elicitations the server still waits for and the browser has not sent. */
export function openElicitations(state: ChatState): ElicitationEntry[] {
  return allElicitations(state).filter((elicitation) => OPEN.includes(elicitation.status))
}

/** The client state after one event of the stream or one thing the user did. */
export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'text':
      return appendText(state, action.content)
    case 'tool_calls': {
      let next = endAssistantText(state)
      for (const call of action.calls) {
        next = updateTool(next, call.id, call.name, (tool) => ({
          ...tool,
          name: call.name,
          arguments: parseMaybeJson(call.arguments),
          ...(call.title ? { title: call.title } : {}),
          ...(call.external ? { external: call.external } : {}),
        }))
      }
      return next
    }
    case 'tool_result':
      return updateTool(endAssistantText(state), action.id, action.name, (tool) => {
        const value = parseJson(action.content)
        return {
          ...closeElicitations(tool),
          // An external tool's result that says it is an error (MCP `isError`) failed, though it is a result.
          status: keepSticky(tool.status, tool.external && isErrorResult(value) ? 'failed' : 'completed'),
          result: { text: action.content, value },
        }
      })
    case 'tool_error':
      return updateTool(endAssistantText(state), action.id, action.name, (tool) => ({
        ...closeElicitations(tool),
        status: keepSticky(tool.status, 'failed'),
        // A tool the user stopped ends with an error that only says so; the card already does.
        error: STICKY.includes(tool.status) ? tool.error : action.message,
      }))
    case 'plugin_elicit_request':
      return updateTool(endAssistantText(state), action.callId, action.toolName, (tool) => {
        const { type: _type, ...question } = action
        const asked = { question, status: 'waiting' as const, answers: [], result: undefined, error: undefined }
        const existing = tool.elicitations.find((elicitation) => elicitation.question.elicitId === action.elicitId)
        const elicitations = existing
          ? tool.elicitations.map((elicitation) =>
              elicitation === existing ? { ...existing, ...asked, attempt: existing.attempt + 1 } : elicitation,
            )
          : [...tool.elicitations, { ...asked, attempt: 1 }]
        return { ...tool, status: keepSticky(tool.status, 'awaiting_input'), elicitations }
      })
    case 'plugin_elicit_rejected':
      return updateElicitation(state, action.elicitId, (elicitation) =>
        elicitation.question.sessionId === action.sessionId
          ? { ...elicitation, rejection: { message: action.message, ...(action.issues ? { issues: action.issues } : {}) } }
          : elicitation,
      )
    case 'plugin_progress':
      return updateExistingTool(state, action.callId, (tool) => ({
        ...tool,
        progress: { message: action.message, ...(typeof action.progress === 'number' ? { value: clamp(action.progress) } : {}) },
      }))
    case 'plugin_log':
      return updateExistingTool(state, action.callId, (tool) => ({
        ...tool,
        logs: [...tool.logs, { level: action.level, message: action.message }].slice(-MAX_LOG_LINES),
      }))
    case 'plugin_session_error': {
      // Stopped (a Stop on another of the person's pages, a new message, an operator's End, the
      // idle time-out): the card says so as the page that stopped it does, with the reason; a
      // card this page stopped or cancelled already says so, and keeps what it says.
      const stopped = action.error === 'SESSION_ABORTED'
      return updateExistingTool(state, action.callId, (tool) => ({
        ...closeElicitations(tool, stopped ? 'stopped' : 'closed'),
        status: keepSticky(tool.status, stopped ? 'stopped' : 'failed'),
        error: STICKY.includes(tool.status) ? tool.error : sessionErrorText(action.error, action.message),
      }))
    }
    case 'conversation_state':
      return { ...state, messages: action.messages, turn: state.turn && { ...state.turn, receivedState: true, text: '' } }
    case 'complete': {
      const next = endAssistantText(state)
      if (!next.turn || next.turn.textReceived || action.text.trim() === '') return next
      return {
        ...next,
        entries: [...next.entries, { kind: 'assistant', id: `assistant-${next.entries.length}`, text: action.text, streaming: false }],
        turn: next.turn.receivedState ? next.turn : { ...next.turn, text: next.turn.text + action.text, textReceived: true },
      }
    }
    case 'error':
      return { ...state, error: action.message }

    case 'local/send':
      return {
        ...state,
        // A tool call still without an answer (its stop request failed, say) stays as the server
        // sent it: the server closes the calls the user moved on from, and only it may write their
        // results (it signs every assistant and tool message and refuses any it did not produce).
        messages: [...state.messages, { role: 'user', content: action.text }],
        entries: [...state.entries, { kind: 'user', id: `user-${state.entries.length}`, text: action.text }],
        status: 'streaming',
        error: undefined,
        budgetSpent: undefined,
        turn: newTurn('message'),
      }
    case 'local/answer':
      return updateElicitation(state, action.elicitId, (elicitation) =>
        elicitation.attempt === action.attempt && elicitation.status === 'waiting' ? { ...elicitation, answers: storable(action.answers) } : elicitation,
      )
    case 'local/answered': {
      const next = updateElicitation(state, action.elicitId, (elicitation) =>
        elicitation.attempt === action.attempt && elicitation.status === 'waiting'
          ? { ...elicitation, status: 'answered', answers: storable(action.answers), result: action.result, ...(action.error ? { error: action.error } : {}) }
          : elicitation,
      )
      // An answer to an attempt gone by changes nothing.
      return next === state ? state : settle(next)
    }
    case 'local/stop_sessions': {
      const sessions = new Set(action.sessionIds)
      const stopped = (elicitation: ElicitationEntry) => sessions.has(elicitation.question.sessionId) && OPEN.includes(elicitation.status)
      const entries = state.entries.map((entry) => {
        if (entry.kind !== 'tool' || !entry.elicitations.some(stopped)) return entry
        return {
          ...entry,
          status: 'stopped' as const,
          elicitations: entry.elicitations.map((elicitation) => (stopped(elicitation) ? { ...elicitation, status: 'stopped' as const } : elicitation)),
        }
      })
      return settle({ ...state, entries })
    }
    case 'local/abort_start':
      return { ...state, status: 'streaming', turn: newTurn('abort') }
    case 'local/stream_end': {
      const turn = state.turn
      if (!turn) return state
      if (!turn.receivedState) {
        return interrupt(state, { reason: 'The answer ended before the turn finished.', error: state.error ?? 'The answer ended early.', toolStatus: 'failed' })
      }
      const next = endAssistantText(state)
      const entries = state.error
        ? next.entries.map((entry) =>
            entry.kind === 'tool' && entry.status === 'running' ? { ...entry, status: 'failed' as const, error: entry.error ?? state.error } : entry,
          )
        : next.entries
      return settle({ ...next, entries, turn: undefined })
    }
    case 'local/interrupted':
      return state.turn ? interrupt(state, { reason: action.reason, error: action.error, toolStatus: 'cancelled' }) : state
    case 'local/not_sent': {
      const turn = state.turn
      if (!turn) return state
      const unsent = new Set(turn.kind === 'responses' ? turn.elicitIds : [])
      const stopped = (elicitation: ElicitationEntry) => unsent.has(elicitation.question.elicitId) && elicitation.status === 'submitted'
      const entries = state.entries.map((entry) => {
        if (entry.kind !== 'tool' || !entry.elicitations.some(stopped)) return entry
        return {
          ...entry,
          status: keepSticky(entry.status, 'stopped'),
          elicitations: entry.elicitations.map((elicitation) => (stopped(elicitation) ? { ...elicitation, status: 'stopped' as const } : elicitation)),
        }
      })
      return interrupt({ ...state, entries }, { reason: action.reason, toolStatus: 'cancelled' })
    }
    case 'local/refused':
      return settle({ ...state, error: action.message })
    case 'local/call_ended':
      return settle(reduceChat(state, action.event))
    case 'local/request_failed': {
      const turn = state.turn
      const last = state.entries.at(-1)
      if (action.budgetResetsAt && turn?.kind === 'message' && last?.kind === 'user') {
        // Not an error: the message waits in the composer for the budget to reset.
        const budgetSpent = { resetsAt: action.budgetResetsAt, text: last.text }
        return settle({ ...state, messages: state.messages.slice(0, -1), entries: state.entries.slice(0, -1), turn: undefined, budgetSpent })
      }
      let next: ChatState = { ...state, error: action.message, turn: undefined }
      if (turn?.kind === 'message') {
        const last = next.messages.at(-1)
        if (last?.role === 'user') next = { ...next, messages: next.messages.slice(0, -1) }
      }
      if (turn?.kind === 'responses') {
        // The server did not take the answers, so its sessions still wait: ask again.
        const ids = new Set(turn.elicitIds)
        next = mapElicitations(next, (elicitation) =>
          ids.has(elicitation.question.elicitId) && elicitation.status === 'submitted'
            ? { ...elicitation, status: 'waiting', attempt: elicitation.attempt + 1, answers: [], result: undefined }
            : elicitation,
        )
      }
      return settle(next)
    }
    default:
      return state
  }
}

function newTurn(kind: TurnState['kind']): TurnState {
  return { kind, text: '', textReceived: false, receivedState: false, elicitIds: [] }
}

/**
 * The state once nothing is in flight: when every question still open has its answer, they go
 * out together (a `responses` turn the controller sends); else the chat waits for the user or
 * is idle. So the chat never sits with every question answered and nothing sent.
 */
function settle(state: ChatState): ChatState {
  if (state.turn) return state
  const open = openElicitations(state)
  if (open.length > 0 && open.every((elicitation) => elicitation.status === 'answered')) {
    const ids = new Set(open.map((elicitation) => elicitation.question.elicitId))
    const next = mapElicitations(state, (elicitation) =>
      ids.has(elicitation.question.elicitId) && elicitation.status === 'answered' ? { ...elicitation, status: 'submitted' } : elicitation,
    )
    return { ...next, status: 'streaming', error: undefined, turn: { ...newTurn('responses'), elicitIds: [...ids] } }
  }
  const status: ChatStatus = open.length > 0 ? 'awaiting_input' : state.error ? 'error' : 'idle'
  return { ...state, status }
}

/** Answers by render index as JSON keeps them: a render left unanswered is `null`. */
function storable(answers: unknown[]): unknown[] {
  return Array.from(answers, (answer) => answer ?? null)
}

function interrupt(
  state: ChatState,
  { reason, error, toolStatus }: { reason: string; error?: string; toolStatus: 'cancelled' | 'failed' },
): ChatState {
  // The conversation stays as the server last signed it (plus the user's message): the text
  // streamed so far is shown, but only the server writes assistant and tool messages.
  const messages = state.messages
  const entries = endAssistantText(state).entries.map((entry) => {
    if (entry.kind !== 'tool') return entry
    const unfinished = entry.status === 'running' || entry.status === 'awaiting_input'
    return {
      ...entry,
      status: unfinished ? toolStatus : entry.status,
      ...(unfinished && toolStatus === 'failed' ? { error: entry.error ?? reason } : {}),
      elicitations: entry.elicitations.map((elicitation) =>
        OPEN.includes(elicitation.status) ? { ...elicitation, status: 'stopped' as const } : elicitation,
      ),
    }
  })
  return settle({ ...state, messages, entries, turn: undefined, error })
}

function keepSticky(current: ToolCallStatus, next: ToolCallStatus): ToolCallStatus {
  return STICKY.includes(current) ? current : next
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const parsed = parseJson(value)
  return parsed === undefined ? value : parsed
}

const SESSION_ERROR_LABELS: Record<SessionErrorCode, string> = {
  SESSION_NOT_FOUND: 'The plugin session was lost',
  SESSION_ABORTED: 'The plugin session was stopped',
  INTERNAL_ERROR: 'The plugin session failed',
}

function sessionErrorText(code: SessionErrorCode, message: string): string {
  const label = SESSION_ERROR_LABELS[code] ?? 'The plugin session failed'
  return message ? `${label}: ${message}` : `${label}.`
}

function isErrorResult(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true
}
