import type { ChatEvent } from '../protocol/events'
import type { EndedCallEvent } from '../protocol/ended-call'
import type { Message } from '../protocol/messages'
import type { DirectToolCall, PluginAbort, PluginElicitResponse } from '../protocol/request-schema'
import { toRequestError } from './chat-request'
import { allElicitations, initialChatState, openElicitations, reduceChat, type ChatState } from './chat-state'

/** A turn of a chat kept on the server, as `GET /api/chats/:id` answers it (docs/conversations.md). */
export interface KeptTurn {
  input: { text?: string; pluginElicitResponses?: PluginElicitResponse[]; pluginAbort?: PluginAbort; directToolCall?: DirectToolCall }
  events: ChatEvent[]
}

/** What the browser reads of a kept chat: its turns, and the signed conversation the next turn continues. */
export interface KeptChat {
  id: string
  title: string
  turns: KeptTurn[]
  conversationState?: Message[]
  /** Calls its turns leave waiting that have ended since (an operator's End, an expiry): read after the turns. */
  endedCalls?: EndedCallEvent[]
}

/**
 * The chat as it was shown: each turn replayed through the reducer as it happened live — its
 * input (the person's message, the answers the browser sent, a Stop), every event the server
 * streamed, then the stream's end — so a reopened chat is the chat itself, not a second display
 * format: tool cards, folded answered questions, results, and a question still waiting.
 *
 * A turn whose stream never ended (the server was killed mid-turn) ends as a cut stream does
 * live. Then each call the server found ended since (`endedCalls`) ends as its next turn would
 * say. The conversation the next request sends is the chat's `conversationState`, as signed by
 * the server.
 */
export function replayChat(chat: Pick<KeptChat, 'turns' | 'conversationState' | 'endedCalls'>): ChatState {
  let state = initialChatState
  for (const { input, events } of chat.turns) {
    state = replayInput(state, input)
    for (const event of events) state = reduceChat(state, event)
    state = reduceChat(state, { type: 'local/stream_end' })
  }
  for (const event of chat.endedCalls ?? []) state = reduceChat(state, { type: 'local/call_ended', event })
  return { ...state, messages: chat.conversationState ?? [] }
}

function replayInput(state: ChatState, input: KeptTurn['input']): ChatState {
  if (input.pluginAbort) {
    const { sessionId } = input.pluginAbort
    state = reduceChat(state, { type: 'local/stop_sessions', sessionIds: [sessionId] })
    return reduceChat(state, { type: 'local/abort_start', sessionId })
  }
  if (input.pluginElicitResponses?.length) {
    // Each answer as the browser gave it: once every open question has its answer, the reducer starts the turn that sends them.
    for (const { elicitId, result, renders } of input.pluginElicitResponses) {
      const asked = allElicitations(state).find((elicitation) => elicitation.question.elicitId === elicitId)
      if (asked) state = reduceChat(state, { type: 'local/answered', elicitId, attempt: asked.attempt, answers: renders ?? [], result })
    }
    return state
  }
  return reduceChat(state, { type: 'local/send', text: input.text ?? (input.directToolCall ? `/${input.directToolCall.name}` : '') })
}

/**
 * Whether a kept chat, read again because the question `elicitId` was answered on another page,
 * holds what came of that answer: its last turn is kept to its end (it says how it ended: the
 * conversation it leaves, or an error), and the question has the answer once replayed (`shown`,
 * its `replayChat`: a turn's input gave it). A read made while the answering turn is still being
 * kept holds less — even when the question no longer shows open: the call may have ended before
 * its turn was kept, and the read's `endedCalls` then closes it unanswered. The page goes on
 * showing what it showed until it is told again.
 */
export function holdsAnswer(chat: Pick<KeptChat, 'turns'>, shown: ChatState, elicitId: string): boolean {
  const last = chat.turns.at(-1)
  const ended = last?.events.some((event) => event.type === 'conversation_state' || event.type === 'error') ?? false
  const question = allElicitations(shown).find((elicitation) => elicitation.question.elicitId === elicitId)
  return ended && question !== undefined && question.result !== undefined && !openElicitations(shown).includes(question)
}

/** What loading a chat found: the chat, or none of this browser's (unknown, deleted, another browser's). */
export type LoadedChat = { kind: 'found'; chat: KeptChat } | { kind: 'not_found' }

/** `GET /api/chats/:id`. A failure other than "not found" (offline, the store down) rejects with its message. */
export async function loadKeptChat({ id, endpoint = '/api/chats', fetch = globalThis.fetch }: { id: string; endpoint?: string; fetch?: typeof globalThis.fetch }): Promise<LoadedChat> {
  const response = await fetch(`${endpoint}/${encodeURIComponent(id)}`, { credentials: 'same-origin', headers: { accept: 'application/json' } })
  if (response.status === 404) return { kind: 'not_found' }
  if (!response.ok) throw await toRequestError(response)
  const { chat } = (await response.json()) as { chat: KeptChat }
  return { kind: 'found', chat }
}
