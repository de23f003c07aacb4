import { z } from 'zod'

/**
 * How the user answered a question, as it crosses the wire: the `result` of each
 * `pluginElicitResponses` entry of `POST /api/chat`, and what a question's component passes to
 * `respond`. The one definition of the answer: `ElicitAnswer` is typed from it.
 */
export const elicitAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.unknown() }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
])

type WireAnswer = z.infer<typeof elicitAnswerSchema>

/**
 * An answer as the schema reads it, its accepted `content` typed by the question's response
 * (`ElicitAnswer<{ row: number; seat: string }>`); `unknown` when read off the wire, unchecked.
 */
export type ElicitAnswer<TContent = unknown> =
  | { [K in keyof Extract<WireAnswer, { action: 'accept' }>]: K extends 'content' ? TContent : Extract<WireAnswer, { action: 'accept' }>[K] }
  | Exclude<WireAnswer, { action: 'accept' }>
