import { ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api'
import { z } from 'zod'
import type { JournalEntry } from '../runtime/journal'
import { askedQuestionSchema, type AskedQuestion } from '../protocol/question'

export type { JournalEntry }

/** The format of a stored session; a record of another format is refused, never guessed at. */
export const SESSION_RECORD_FORMAT = 1

export type SessionStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'aborted'

/** How a session ended, kept for a while so a late request learns what happened. */
export type SessionEnding =
  | { kind: 'completed'; content: string }
  | { kind: 'failed'; message: string }
  | { kind: 'aborted'; reason: string }

/**
 * A plugin session as data: everything needed to continue the tool on any process. The live
 * generator, when there is one, is only a cache of this.
 */
export interface SessionRecord {
  format: typeof SESSION_RECORD_FORMAT
  /** The model's tool_call.id. */
  id: string
  /** The browser identity that started it; nobody else may answer or abort it. */
  clientId: string
  toolName: string
  /** The tool's arguments as the model sent them (JSON). */
  params: unknown
  status: SessionStatus
  journal: JournalEntry[]
  /** Set while `status` is `waiting`: its part of the question that travels, as `PendingQuestion.toRecord` makes it. */
  pending?: AskedQuestion
  /** Set once the session has ended. */
  ending?: SessionEnding
  createdAt: number
  updatedAt: number
  /**
   * While waiting: when the idle time-out ends it. While running: when the process running it
   * is presumed dead (its lease), so another may take over.
   */
  expiresAt: number
  /** When the store may forget the record altogether. */
  keepUntil: number
  /** The server instance that wrote it last (`INSTANCE_NAME`, else host and port): where its tool may be in memory. */
  instance?: string
  /**
   * With traces on: the span of the tool call's latest piece (its start, or the resume that
   * answered its last question), so that the turn bringing the next answer links to the span
   * that paused, in this process or another, before or after a restart.
   */
  span?: SpanRef
}

/**
 * A record the session layer keeps for other work than a chat's tool session (a call run in
 * rounds, a round's claim, a held protocol session), under a reserved client id: no journal and
 * no question, written at `now` and kept until `keepUntil` (its `expiresAt` too).
 */
export function keptRecord({
  clientId,
  id,
  toolName,
  params,
  status,
  ending,
  now,
  createdAt = now,
  keepUntil,
}: Pick<SessionRecord, 'clientId' | 'id' | 'toolName' | 'params' | 'status' | 'ending' | 'keepUntil'> & { now: number; createdAt?: number }): SessionRecord {
  return {
    format: SESSION_RECORD_FORMAT,
    id,
    clientId,
    toolName,
    params,
    status,
    journal: [],
    ...(ending ? { ending } : {}),
    createdAt,
    updatedAt: now,
    expiresAt: keepUntil,
    keepUntil,
  }
}

/** A span's identity as data (W3C trace context): what a span link needs. */
export interface SpanRef {
  traceId: string
  spanId: string
  traceFlags: number
}

/** The trace context of a kept span (`SpanRef`): what a span made under it takes as its parent. */
export function traceContextOf(span: SpanRef): Context {
  return trace.setSpanContext(ROOT_CONTEXT, { ...span, isRemote: false })
}

const json = z.custom<unknown>((value) => value !== undefined, 'a JSON value')
const usage = z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional() }).optional()

const journalEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    seq: z.number().int().positive(),
    kind: z.literal('elicit'),
    key: z.string(),
    answer: z.discriminatedUnion('action', [
      z.object({ action: z.literal('accept'), content: json }),
      z.object({ action: z.literal('decline') }),
      z.object({ action: z.literal('cancel') }),
    ]),
  }),
  z.object({ seq: z.number().int().positive(), kind: z.literal('sample'), text: z.string(), usage }),
  z.object({ seq: z.number().int().positive(), kind: z.literal('step'), name: z.string(), value: json }),
])

const sessionRecordSchema = z.object({
  format: z.literal(SESSION_RECORD_FORMAT),
  id: z.string().min(1),
  clientId: z.string().min(1),
  toolName: z.string().min(1),
  params: json,
  status: z.enum(['running', 'waiting', 'completed', 'failed', 'aborted']),
  journal: z.array(journalEntrySchema),
  pending: askedQuestionSchema.optional(),
  ending: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('completed'), content: z.string() }),
      z.object({ kind: z.literal('failed'), message: z.string() }),
      z.object({ kind: z.literal('aborted'), reason: z.string() }),
    ])
    .optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  expiresAt: z.number(),
  keepUntil: z.number(),
  instance: z.string().max(200).optional(),
  span: z.object({ traceId: z.string(), spanId: z.string(), traceFlags: z.number().int() }).optional(),
})

/** A stored record that cannot be read: corrupted, or written by an incompatible version. */
export class SessionRecordError extends Error {
  override name = 'SessionRecordError'
}

export function encodeSessionRecord(record: SessionRecord): string {
  return JSON.stringify(record)
}

/** The record in `text`, validated; a `SessionRecordError` saying what is wrong otherwise. */
export function decodeSessionRecord(text: string): SessionRecord {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new SessionRecordError('The stored session is not valid JSON.')
  }
  const format = (data as { format?: unknown } | null)?.format
  if (format !== SESSION_RECORD_FORMAT) {
    throw new SessionRecordError(`The stored session has format ${JSON.stringify(format)}; this server reads format ${SESSION_RECORD_FORMAT}.`)
  }
  const parsed = sessionRecordSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new SessionRecordError(`The stored session is not valid: ${issue.path.join('.') || 'record'}: ${issue.message}`)
  }
  return parsed.data as SessionRecord
}
