import { z } from 'zod'
import { MAX_PAGE_SIZE } from './limits'
import { TITLE_MAX_CHARS } from './title'

/** `POST /api/chats`: an empty object for a new chat, or `{ import }` with a JSON export (checked by `chatExportSchema`). */
export const createChatBodySchema = z.union([z.strictObject({}), z.strictObject({ import: z.unknown() })])

/** `PATCH /api/chats/:id`: the new title, trimmed, 1 to 120 characters. */
export const renameChatBodySchema = z.strictObject({
  title: z.string().trim().min(1, 'A title needs at least one character.').max(TITLE_MAX_CHARS, `A title has at most ${TITLE_MAX_CHARS} characters.`),
})

/** `GET /api/chats?limit=&cursor=`. */
export const listChatsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  cursor: z.string().min(1).max(200).optional(),
})

/** `GET /api/chats/:id/export?format=json|md` (JSON when not given). */
export const exportChatQuerySchema = z.strictObject({
  format: z.enum(['json', 'md']).default('json'),
})

/**
 * `GET /api/chats/:id/waiting?calls=`: the calls the page shows waiting, their ids comma-separated
 * (at most 32, as many as a request answers at once); without it, the calls the chat keeps waiting.
 */
export const waitingChatQuerySchema = z.strictObject({
  calls: z
    .string()
    .regex(/^[^,]{1,200}(,[^,]{1,200}){0,31}$/, 'at most 32 tool call ids, comma-separated, each 1 to 200 characters')
    .optional(),
})
