import { SpanKind, SpanStatusCode, type Context, type Tracer } from '@opentelemetry/api'
import type { Operation } from 'effection'
import { traceParent } from '../runtime'
import { traceContextOf, type SessionRecord, type SessionStore } from '../sessions'
import type { ConversationStore } from '../conversations'

/** What an observed store tells of each operation: its name, its duration, and how it failed (`halted`: its caller stopped waiting). */
export interface StoreOperationReport {
  operation: string
  seconds: number
  errorType?: string
}

export interface StoreObservation {
  /** `db.system.name`: `sqlite` (the embedded store), `redis`, or `memory`. */
  system: string
  /** `db.collection.name`: what the store keeps (`sessions`, `chats`). */
  collection: string
  /** Told each operation's duration (the server's `db.client.operation.duration`). */
  report?: (report: StoreOperationReport) => void
  /** With traces exported: a span per operation made within a traced piece of work. */
  tracer?: Tracer
  /** The trace an operation belongs to by its arguments (a session record's own call), before the running operation's. */
  parentOf?: (operation: string, args: readonly unknown[]) => Context | undefined
}

/** The names of a store's methods that are operations. */
type OperationName<S> = { [K in keyof S]: S[K] extends (...args: never[]) => Operation<unknown> ? K : never }[keyof S] & string

/**
 * `store` with its operations observed, the one place a store's reads and writes are: each
 * timed for the metrics (`report`) and, with traces exported, a span by the OpenTelemetry
 * database conventions (`{db.operation.name} {db.collection.name}`, client kind,
 * `db.system.name`, `db.operation.name`, `db.collection.name`, `error.type`), the child of the
 * turn's or the tool call's span (`TraceParent`). An operation outside such work (a sweep, a
 * scrape) makes no span; without a tracer none is made and nothing is read to find a parent.
 * Only a wrapper: what the store does and returns is unchanged, and what is not an operation
 * (`kind`, the event log) is the store's own.
 */
export function observedStore<S extends object>(store: S, operations: readonly OperationName<S>[], observation: StoreObservation): S {
  const { report, tracer } = observation
  if (!report && !tracer) return store
  const observed = Object.create(store) as S
  for (const name of operations) {
    const run = (store[name] as (...args: unknown[]) => Operation<unknown>).bind(store)
    ;(observed as Record<string, unknown>)[name] = observe(name, run, observation)
  }
  return observed
}

function observe(
  operation: string,
  run: (...args: unknown[]) => Operation<unknown>,
  { system, collection, report, tracer, parentOf }: StoreObservation,
): (...args: unknown[]) => Operation<unknown> {
  const attributes = { 'db.system.name': system, 'db.operation.name': operation, 'db.collection.name': collection }
  const name = `${operation} ${collection}`
  return function* (...args) {
    const parent = tracer && (parentOf?.(operation, args) ?? (yield* traceParent()))
    const span = parent && tracer!.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent)
    const started = report && performance.now()
    let errorType: string | undefined = 'halted'
    try {
      const value = yield* run(...args)
      errorType = undefined
      return value
    } catch (error) {
      errorType = error instanceof Error ? error.name : 'unknown'
      throw error
    } finally {
      report?.({ operation, seconds: (performance.now() - started!) / 1000, errorType })
      if (span) {
        if (errorType) {
          span.setStatus({ code: SpanStatusCode.ERROR })
          span.setAttribute('error.type', errorType)
        }
        span.end()
      }
    }
  }
}

/** The sessions' store's operations: its records' reads and writes (the event log's reads wait for an event by design, and are not observed). */
export const SESSION_STORE_OPERATIONS = ['get', 'create', 'update', 'delete', 'sweep', 'list', 'countOpen', 'openOf'] as const satisfies readonly OperationName<SessionStore>[]

/** The chats' store's operations. */
export const CONVERSATION_STORE_OPERATIONS = [
  'create',
  'list',
  'get',
  'summary',
  'startTurn',
  'appendEvents',
  'rename',
  'delete',
  'restore',
  'moveChats',
  'sweep',
] as const satisfies readonly OperationName<ConversationStore>[]

/** A session record's write belongs to its tool call: the span its record keeps. */
export function sessionRecordSpan(operation: string, args: readonly unknown[]): Context | undefined {
  if (operation !== 'create' && operation !== 'update') return undefined
  const span = (args[0] as SessionRecord | undefined)?.span
  return span && traceContextOf(span)
}

/** `db.system.name` of each store the app opens: the embedded one is SQLite (libsql). */
export function dbSystemOf(store: string): string {
  return ({ embedded: 'sqlite', redis: 'redis', memory: 'memory' } as Record<string, string>)[store] ?? store
}
