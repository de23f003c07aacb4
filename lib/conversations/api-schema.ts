import { z } from 'zod'
import { parseElicitId } from '../protocol/elicit-id'
import type { WatchedCall } from '../protocol/ended-call'
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
 * `GET /api/chats/:id/waiting?questions=` (or `?calls=`): the questions the page shows waiting,
 * their elicit ids (`toolName/key/callId/seq`) comma-separated, so that a question answered on
 * another page is told too; or only the calls it shows waiting, their ids comma-separated. At
 * most 32 either way (as many as a request answers at once), one of the two; without either, the
 * calls the chat keeps waiting. What to follow, as `ChatCalls.watch` takes it (`calls`), or
 * undefined for the chat's own.
 */
export const waitingChatQuerySchema = z
  .strictObject({
    calls: z
      .string()
      .regex(/^[^,]{1,200}(,[^,]{1,200}){0,31}$/, 'at most 32 tool call ids, comma-separated, each 1 to 200 characters')
      .optional(),
    questions: z
      .string()
      .regex(/^[^,]{1,400}(,[^,]{1,400}){0,31}$/, 'at most 32 elicit ids, comma-separated, each 1 to 400 characters')
      .optional(),
  })
  .refine((query) => query.calls === undefined || query.questions === undefined, { message: 'name the calls or the questions, not both', path: ['questions'] })
  .transform((query, context): { calls: WatchedCall[] | undefined } => {
    if (query.calls !== undefined) return { calls: query.calls.split(',').map((callId) => ({ callId })) }
    if (query.questions === undefined) return { calls: undefined }
    const calls: WatchedCall[] = []
    for (const elicitId of query.questions.split(',')) {
      const parsed = parseElicitId(elicitId)
      if (!parsed || parsed.callId.length > 200) {
        context.addIssue({ code: 'custom', path: ['questions'], message: `"${elicitId.slice(0, 80)}" is not an elicit id (toolName/key/callId/seq, the call id at most 200 characters)` })
        return z.NEVER
      }
      calls.push({ callId: parsed.callId, question: { elicitId, seq: parsed.seq } })
    }
    return { calls }
  })
