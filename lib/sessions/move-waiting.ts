import type { Operation } from 'effection'
import { SessionRecordError } from './session-record'
import type { SessionStore } from './session-store'

/** Waiting sessions one move takes at most (a browser's own: `MAX_WAITING_SESSIONS_PER_CLIENT` is far below). */
const MOVE_AT_MOST = 1000

/**
 * Moves `from`'s waiting sessions — tools waiting on a question — to `to` (a browser's to the
 * account it signs in to), so that the question can be answered by `to`, and no longer by `from`.
 * Each is put under `to` first (a create: one there already, from an interrupted or concurrent
 * move, is left as it is), then removed from `from`: a repeat finds nothing left, and no session
 * is ever under neither. Running sessions are not moved (their turn is `from`'s and ends as
 * such). A tool waiting in memory under `from` is not told: an answer under `to` replays its
 * journal, as after a restart (a live-only tool that cannot be replayed is lost). How many moved.
 */
export function* moveWaitingSessions(store: SessionStore, { from, to, now }: { from: string; to: string; now: number }): Operation<number> {
  if (from === to) return 0
  let moved = 0
  for (const { id } of yield* store.openOf({ clientId: from, now, limit: MOVE_AT_MOST })) {
    let stored
    try {
      stored = yield* store.get(from, id)
    } catch (error) {
      // A record that cannot be read stays where it is, for `get` to report.
      if (error instanceof SessionRecordError) continue
      throw error
    }
    if (!stored || stored.record.status !== 'waiting') continue
    yield* store.create({ ...stored.record, clientId: to })
    yield* store.delete(from, id)
    moved++
  }
  return moved
}
