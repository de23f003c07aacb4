import type { Operation } from 'effection'
import type { ChatEvent } from '../protocol/events'
import type { ChatRequest, DirectToolCall, PluginAbort, PluginElicitResponse } from '../protocol/request-schema'

/**
 * What the engine records of a turn whose request names a chat (`chatId`): the browser's input,
 * not the conversation it carried (the chat's stored `conversation_state` is that).
 */
export interface TurnRecordInput {
  /** The person's message as typed (a slash command too). */
  text?: string
  pluginElicitResponses?: PluginElicitResponse[]
  pluginAbort?: PluginAbort
  directToolCall?: DirectToolCall
}

/**
 * Where the engine keeps the chats turns belong to: a port, typed here and implemented by the
 * chats kept on the server (`lib/conversations`, `chatHistoryOf`), so that the engine knows
 * nothing of how or where they are stored, and a chat server without one stores nothing.
 *
 * A refusal is thrown as a `ChatRequestError` (`chat_not_found`, `chat_too_large`) or anything
 * else `toChatFailure` knows (`store_unavailable`): before streaming it is the response, mid-turn
 * the `error` event that ends the turn.
 */
export interface ChatHistory {
  /**
   * Checks, before anything streams, that a turn of the chat can be kept: refuses a chat that is
   * not `owner`'s, or full; with `create` (the request's `newChat`), an id taken or an owner with
   * as many chats as they may keep. Writes nothing: the turn's input is stored by its `keep`.
   */
  openTurn(owner: string, chatId: string, input: TurnRecordInput, options: { create: boolean }): Operation<KeptTurn>
}

/** A turn of a kept chat, once `openTurn` has admitted it. */
export interface KeptTurn {
  /**
   * Stores a batch of the turn's events, before they are written to the browser. The first call
   * stores the turn's input with them, in one write (with `create`, the chat made by it too), and
   * may have no events: the input alone. `json` is each event's JSON as the stream writes it
   * (`JSON.stringify(event)`), for the store to keep that text rather than encode them again.
   */
  keep(events: readonly ChatEvent[], json?: readonly string[]): Operation<void>
}

/** What a request records as its turn's input: its answers, abort and command, and the person's last message if it is new. */
export function turnInputOf(request: ChatRequest): TurnRecordInput {
  const last = request.messages.at(-1)
  const answering = (request.pluginElicitResponses?.length ?? 0) > 0 || request.pluginAbort !== undefined
  return {
    ...(last?.role === 'user' && !answering && typeof last.content === 'string' ? { text: last.content } : {}),
    ...(request.pluginElicitResponses?.length ? { pluginElicitResponses: request.pluginElicitResponses } : {}),
    ...(request.pluginAbort ? { pluginAbort: request.pluginAbort } : {}),
    ...(request.directToolCall ? { directToolCall: request.directToolCall } : {}),
  }
}
