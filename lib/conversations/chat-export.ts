import { z } from 'zod'
import { readKeptEvent } from '../protocol/kept-question'
import { messageSchema } from '../protocol/messages'
import type { Chat } from './chat'
import { turnInputSchema } from './chat'
import { chatEventSchema } from './event-schema'
import { TITLE_MAX_CHARS } from './title'

/** What the JSON export says it is, so that an import can tell a chat export from any other JSON. */
export const CHAT_EXPORT_FORMAT = 'elicit-chat'
/** The version of the export format this server writes and reads. */
export const CHAT_EXPORT_VERSION = 1

/**
 * A chat as `GET /api/chats/:id/export?format=json` writes it and `POST /api/chats` with
 * `{ import }` reads it back: the chat without its id and owner (an import is a new chat of
 * whoever imports it). Its `conversationState` is the signed conversation: the engine checks its
 * signatures when the next turn is sent, so an import cannot make up what the assistant or a tool said.
 */
export const chatExportSchema = z.strictObject({
  format: z.literal(CHAT_EXPORT_FORMAT),
  version: z.literal(CHAT_EXPORT_VERSION),
  title: z.string().trim().max(TITLE_MAX_CHARS),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  // An export made before a question's context was a field of its own is read into today's shape first.
  turns: z.array(z.object({ input: turnInputSchema, events: z.array(z.preprocess(readKeptEvent, chatEventSchema)) })).max(10_000),
  conversationState: z.array(messageSchema).max(1_000).optional(),
})

export type ChatExport = z.infer<typeof chatExportSchema>

/** The JSON export of `chat`. */
export function toChatExport(chat: Chat): ChatExport {
  return {
    format: CHAT_EXPORT_FORMAT,
    version: CHAT_EXPORT_VERSION,
    title: chat.title,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    turns: chat.turns,
    ...(chat.conversationState ? { conversationState: chat.conversationState } : {}),
  }
}
