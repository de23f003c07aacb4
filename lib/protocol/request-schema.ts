import { isChatId } from './chat-id'
import { z } from 'zod'
import { MAX_APP_CONTEXT_CHARS, MAX_APP_CONTEXTS } from './app-context-limits'
import { elicitAnswerSchema } from './elicit-answer'
import { messageSchema } from './messages'

export const pluginElicitResponseSchema = z.object({
  sessionId: z.string().min(1).max(200),
  callId: z.string().min(1).max(200),
  elicitId: z.string().min(1).max(500),
  result: elicitAnswerSchema,
  /**
   * What the browser's handler for this question was answered in its renders before it gave
   * `result` (a handler of several steps: an MCP App, then what it answered). The server does
   * not read it; a chat kept on the server keeps it with the turn, so that the reopened chat
   * shows those steps as they were. Optional: API clients never send it.
   */
  renders: z.array(z.unknown()).max(16).optional(),
})

export const pluginAbortSchema = z.object({
  sessionId: z.string().min(1).max(200),
  reason: z.string().max(1_000).optional(),
})

/**
 * A slash command (`/<tool> <json>` in the composer): call this tool with these arguments now,
 * without asking the model, and end the turn with its result. The last message is the user's
 * command as typed.
 */
export const directToolCallSchema = z.object({
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()),
})


/**
 * What an MCP App in the chat last told the model (`ui/update-model-context`), kept by the
 * browser and sent with each request: the model sees it on its next turn. It is never put in
 * the conversation (which the server signs), so a later update replaces it.
 */
export const appContextSchema = z.strictObject({
  /** Which app: `<server>__<tool>` and its call, as the chat shows it. */
  source: z.string().min(1).max(200),
  text: z.string().min(1).max(MAX_APP_CONTEXT_CHARS),
})

/** The body of `POST /api/chat`. */
export const chatRequestSchema = z.object({
  messages: z.array(messageSchema).max(1_000),
  /**
   * The chat kept on the server this turn belongs to (docs/conversations.md): the turn's input
   * and every event streamed back are stored in it. It must be the requesting identity's chat
   * (else 404 `chat_not_found`). Without it nothing is stored, as for any API client.
   */
  chatId: z.string().min(1).max(64).optional(),
  /**
   * This turn is the first of a new chat kept on the server, whose id the browser made
   * (`newChatId`) and names in `chatId`: the server makes the chat with the turn, in the same
   * write, instead of a `POST /api/chats` of its own. 409 `chat_exists` when this identity has a
   * chat of that id, 429 `too_many_chats` when it keeps as many as it may.
   */
  newChat: z.literal(true).optional(),
  /**
   * The page that sent this turn of a kept chat (`chatId`) follows the questions the turn leaves
   * waiting on the same response, instead of a `GET /api/chats/:id/waiting` of its own: when the
   * turn has asked any, its last line is `turn_end` (the turn is over), and the response is then
   * held, as that follow's is, with a line for each question answered elsewhere or whose call
   * ends (`WaitingCallNews`), until none is left; the page lets it go when it answers. Without
   * it (or when the turn asked nothing) the response ends with the turn.
   */
  follow: z.literal(true).optional(),
  pluginElicitResponses: z.array(pluginElicitResponseSchema).max(32).optional(),
  pluginAbort: pluginAbortSchema.optional(),
  directToolCall: directToolCallSchema.optional(),
  appContext: z.array(appContextSchema).max(MAX_APP_CONTEXTS).optional(),
}).refine((request) => !request.newChat || (request.chatId !== undefined && isChatId(request.chatId)), {
  path: ['chatId'],
  message: 'A new chat (newChat) needs its id in chatId: 22 base64url characters (newChatId).',
}).refine((request) => !request.follow || request.chatId !== undefined, {
  path: ['follow'],
  message: 'Only a turn of a kept chat (chatId) is followed on its response: send the request without follow, or name the chat.',
})

export type ChatRequest = z.infer<typeof chatRequestSchema>
export type PluginElicitResponse = z.infer<typeof pluginElicitResponseSchema>
export type PluginAbort = z.infer<typeof pluginAbortSchema>
export type DirectToolCall = z.infer<typeof directToolCallSchema>
export type AppContext = z.infer<typeof appContextSchema>
