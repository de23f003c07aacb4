import { race, sleep, type Operation, type Subscription } from 'effection'
import type { EndedCallEvent } from '../protocol/ended-call'
import type { CallStanding } from './call-standing'

export interface WatchEndedCallsOptions {
  /** The calls to follow (a chat's waiting ones). */
  callIds: readonly string[]
  /** How a call stands now: one read of the sessions' store (`ChatServer.callStanding`). */
  standing(callId: string): Operation<CallStanding>
  /** The ends announced of the client's calls (`CallEnds.heard`), subscribed to before this starts, so none falls between. */
  heard: Subscription<string | undefined, never>
  /** Told each call that ended, once, as it is found. */
  emit(event: EndedCallEvent): void
  now?: () => number
}

/**
 * Follows a client's waiting tool calls until none waits, telling `emit` of each that ends: its
 * standing is read at once (a call that ended before is told first), then again when an end of
 * it is announced (any stop the sessions write: a Stop on another page, a new message that moves
 * on, an operator's End, on any instance) and when its idle time-out is due (the
 * moment its record says, not a poll: a call answered meanwhile has a later one, which is waited
 * for in turn). A call working in some request (`running`) is looked at again only when an end
 * of it is announced. Returns once every call has ended; halting it stops the watch.
 */
export function* watchEndedCalls({ callIds, standing, heard, emit, now = Date.now }: WatchEndedCallsOptions): Operation<void> {
  /** Each call still followed, with the time its idle time-out is due (undefined while it runs). */
  const following = new Map<string, number | undefined>()
  function* look(callId: string): Operation<void> {
    const stands = yield* standing(callId)
    if (stands.kind === 'ended') {
      following.delete(callId)
      emit(stands.event)
    } else following.set(callId, stands.kind === 'waiting' ? stands.expiresAt : undefined)
  }
  for (const callId of new Set(callIds)) yield* look(callId)
  while (following.size > 0) {
    const due = Math.min(...[...following.values()].map((expiresAt) => expiresAt ?? Infinity))
    const next = yield* race([
      (function* () {
        const announced = yield* heard.next()
        return { announced: announced.value }
      })(),
      (function* () {
        // An idle time-out is at most PLUGIN_SESSION_IDLE_TIMEOUT_MS away; `Infinity`: only an announcement.
        yield* sleep(Number.isFinite(due) ? Math.max(0, due - now()) : 2 ** 31 - 1)
        return { due: true as const }
      })(),
    ])
    if ('due' in next) {
      const at = now()
      for (const [callId, expiresAt] of [...following]) if (expiresAt !== undefined && expiresAt <= at) yield* look(callId)
    } else if (next.announced === undefined) {
      for (const callId of [...following.keys()]) yield* look(callId)
    } else if (following.has(next.announced)) yield* look(next.announced)
  }
}
