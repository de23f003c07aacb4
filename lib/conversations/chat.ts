import { z } from 'zod'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import { directToolCallSchema, pluginAbortSchema, pluginElicitResponseSchema } from '../protocol/request-schema'

/**
 * What the browser sent to start a turn, without the conversation it carried (that is the chat's
 * `conversationState`): the person's message as typed, or the answers to questions, or a Stop.
 * The same fields, with the same schemas, as `POST /api/chat`'s body (lib/protocol).
 */
export const turnInputSchema = z.strictObject({
  /** What the person typed (a slash command too, as typed). */
  text: z.string().max(200_000).optional(),
  pluginElicitResponses: z.array(pluginElicitResponseSchema).max(32).optional(),
  pluginAbort: pluginAbortSchema.optional(),
  directToolCall: directToolCallSchema.optional(),
})

export type TurnInput = z.infer<typeof turnInputSchema>

/**
 * One turn of a chat: what the browser sent, and every NDJSON event the server streamed back,
 * in order. Replaying the events through the browser's reducer shows the turn as it was.
 *
 * A turn's `conversation_state` event is kept in its place, but only the chat's last one carries
 * its `messages` (the chat's `conversationState`); earlier ones were superseded and carry `[]`.
 * Each holds the whole conversation, so keeping every one would make a chat's size grow with the
 * square of its turns; replayed in order, the last one wins, as it did when they streamed.
 */
export interface ChatTurn {
  input: TurnInput
  events: ChatEvent[]
}

/** A chat as its list shows it. */
export interface ChatSummary {
  /** Unguessable and URL-safe (`chat-id.ts`): the chat's address is `/c/<id>`. */
  id: string
  /** Made from the first message (`title.ts`), or given by a rename; '' until the first message. */
  title: string
  /** Epoch milliseconds. */
  createdAt: number
  /** Epoch milliseconds of the last write (a turn, an event, a rename): the list's order. */
  updatedAt: number
  /**
   * The tool calls of this chat whose question its events leave unanswered (`waiting.ts`), as the
   * store keeps them: a call whose session ended elsewhere (an operator's End, its idle time-out)
   * is among them until a turn touches it (an answer, or a new message that moves on from it).
   * The chats API answers `waiting` after asking the sessions about each (`ChatCalls`).
   */
  waitingCalls: string[]
}

/** A whole chat, as `GET /api/chats/:id` answers it. */
export interface Chat extends ChatSummary {
  turns: ChatTurn[]
  /** The signed conversation the next turn continues (the last `conversation_state`); absent before the first. */
  conversationState?: Message[]
}
