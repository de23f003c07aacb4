import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { createSignal, scoped, spawn, type Operation, type Scope, type Subscription, type Task } from 'effection'
import type { EventLog } from '../../sessions/session-store'
import { warnFailure } from '../../http/failure-log'

/** At most this many events of one call are kept for a client to resume from. */
const MAX_EVENTS = 1000
/** A stream with nothing to say sends a comment this often, so that proxies do not take it for dead. */
const KEEP_ALIVE_MS = 15_000

/** The log of call `callId` in the store's `EventLog`. */
const logName = (callId: string) => `mcp-call:${callId}`

/**
 * The SSE event id of an event of a relayed call: `<callId>/<log id>`; a stream's priming event
 * carries the id of where it starts (`<callId>/0` on the call's own POST). (The SDK's own event ids are `<uuid>_<n>`: the two never
 * meet.) Parsed in one place, `parseCallEventId`.
 */
export function callEventId(callId: string, logId: string): string {
  return `${callId}/${logId}`
}

const EVENT_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(0|\d{1,20}(?:-\d{1,20})?)$/

/** The call and position a `Last-Event-ID` names, if it is one of a relayed call's; undefined otherwise (the SDK's, or made up). */
export function parseCallEventId(wire: string): { callId: string; after: string } | undefined {
  const match = EVENT_ID.exec(wire)
  return match ? { callId: match[1]!, after: match[2]! } : undefined
}

/** Runs while a stream of the call does, given the ends of the leases of the call's rounds as they start. */
type Watcher = (leaseEnds: Subscription<number, never>) => Operation<void>

/**
 * The stream of a relayed 2025 call (call-relay.ts): every message the call sends its client —
 * progress and logs, its questions, and last its result — appended in order to a log in the
 * store, and forwarded from there to the client's connection, wherever that is.
 *
 * Invariants: every event carries an id (`callEventId`), so a client whose connection broke
 * resumes after the last one it got, on any instance, and misses nothing; a connection's
 * stream ends after the call's result (the one message that is a response), or at the marker
 * `end` leaves when the client cancelled the call, or when its client goes away, or when this
 * instance closes — never by polling: it waits in the log's blocking
 * read. The log is bounded (`MAX_EVENTS`) and forgotten with its call (`keepUntil`).
 *
 * Whoever serves a stream also watches the call's rounds (`watch`, lib/sessions/lease-watch.ts): the marker
 * `running` leaves when a round starts (the end of its runner's lease, never sent to the client)
 * is handed to it, so that a round whose runner died is run again by an instance the client
 * still listens to.
 */
export class CallLog {
  constructor(
    private readonly scope: Scope,
    private readonly events: EventLog,
    private readonly retryMs: number,
  ) {}

  /** Appends what the call sends next, in order, in one step. */
  *append(callId: string, messages: readonly JSONRPCMessage[], keepUntil: number): Operation<void> {
    if (messages.length === 0) return
    yield* this.events.append(
      logName(callId),
      messages.map((message) => JSON.stringify(message)),
      { maxLength: MAX_EVENTS, keepUntil },
    )
  }

  /**
   * An SSE response forwarding the call's log after `after`, with a priming event first (the id
   * of `after`, `retry:`, empty data): the stream of the call's own POST, so that its client can
   * resume it even before the call has sent anything; and a resumed one, so that a client whose
   * resumed stream breaks again before anything new was sent still names where it is (the SDK
   * clients keep the last id of each stream they read, not of the one they resumed from, and
   * without one they would come back as a new standalone stream).
   */
  stream({
    callId,
    after,
    sessionId,
    watch,
  }: {
    callId: string
    after: string
    sessionId: string
    watch?: Watcher
  }): Response {
    const encoder = new TextEncoder()
    const { scope, events, retryMs } = this
    let reading: Task<void> | undefined
    let keepAlive: ReturnType<typeof setInterval> | undefined
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text))
          } catch {
            // The client went away: `cancel` halts the reader.
          }
        }
        write(`id: ${callEventId(callId, after)}\nretry: ${retryMs}\ndata: \n\n`)
        keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS)
        // The stream's task: it ends by itself (the call's result, or its cancellation), by
        // `cancel` (which awaits its halt), or with the relay's scope. Every failure — a read's,
        // or the watcher's (a child's failure comes out of `scoped` as a throw) — is reported
        // here, once; nothing else awaits its outcome.
        reading = scope.run(function* () {
          try {
            yield* scoped(() => forward({ events, callId, after, watch, write }))
          } catch (error) {
            // A read or the watcher's read that fails (the store unreachable) ends this connection; the client resumes elsewhere.
            warnFailure('mcp_call_stream_failed', 'an MCP call’s stream ended early', error)
          } finally {
            clearInterval(keepAlive)
            try {
              controller.close()
            } catch {
              // Already closed by the client.
            }
          }
        })
      },
      async cancel() {
        clearInterval(keepAlive)
        await reading?.halt()
      },
    })
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'mcp-session-id': sessionId,
      },
    })
  }

  /**
   * A round of the call is about to run, its runner presumed alive until `runningUntil`: a marker
   * that is not a message, never sent, for the streams' watchers. Appended before the call's
   * record says `running`, so that no runner can die with its round unknown to the streams.
   */
  *running(callId: string, runningUntil: number, keepUntil: number): Operation<void> {
    yield* this.events.append(logName(callId), [JSON.stringify({ running: runningUntil })], { maxLength: MAX_EVENTS, keepUntil })
  }

  /** Ends the call's streams without a response (its client cancelled it): a marker that is not a message, never sent. */
  *end(callId: string, keepUntil: number): Operation<void> {
    yield* this.events.append(logName(callId), [JSON.stringify({ ended: 'cancelled' })], { maxLength: MAX_EVENTS, keepUntil })
  }

  *forget(callId: string): Operation<void> {
    yield* this.events.delete(logName(callId))
  }
}

/**
 * Writes the call's log after `after` to a stream, with `watch` beside it, until the call's result
 * or the marker of its cancellation.
 */
function* forward({ events, callId, after, watch, write }: { events: EventLog; callId: string; after: string; watch: Watcher | undefined; write(text: string): void }): Operation<void> {
  const leaseEnds = createSignal<number, never>()
  if (watch) {
    const subscription = yield* leaseEnds
    yield* spawn(() => watch(subscription))
  }
  let cursor = after
  for (;;) {
    for (const event of yield* events.read(logName(callId), cursor)) {
      const message = JSON.parse(event.data) as object
      if (!('jsonrpc' in message)) {
        cursor = event.id
        const { running } = message as { running?: unknown }
        if (typeof running === 'number') {
          leaseEnds.send(running)
          continue
        }
        // The call was cancelled: the stream ends, with nothing more to say (no response, as MCP asks).
        return
      }
      write(`event: message\nid: ${callEventId(callId, event.id)}\ndata: ${event.data}\n\n`)
      cursor = event.id
      // The call's result (its one response) ends the stream.
      if (!('method' in message)) return
    }
  }
}
