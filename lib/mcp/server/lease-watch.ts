import { sleep, type Operation, type Subscription } from 'effection'
import type { StoredSession } from '../../sessions'
import { leaseLapsed } from './round-lease'

/**
 * Watches a relayed call's rounds from a stream of it (call-log.ts), so that a round whose runner
 * died is run again: each notice is the end of a round's lease (`runningUntil`, appended to the
 * call's log when its round starts); at that moment — a deadline, never a poll — the call's
 * record is read once. Still `running` with its lease passed: `takeOver` (a compare-and-set on
 * the version just read, which of several watchers on several instances one wins). Still
 * `running` with its lease moved on (renewed by its runner, or taken over by another watcher):
 * read again at its new end. Anything else (waiting, completed, gone): nothing to do until the
 * next notice.
 *
 * `first` is the record as the stream found it (a resumed stream), checked as a notice is: a
 * client reconnecting after its runner died finds the round to take over.
 */
export function* watchLease({
  notices,
  first,
  read,
  takeOver,
}: {
  notices: Subscription<number, never>
  first?: StoredSession
  read(): Operation<StoredSession | undefined>
  /** Takes the round over from `stored` (compare-and-set on its version) and runs it, to its end. */
  takeOver(stored: StoredSession): Operation<void>
}): Operation<void> {
  let due = first ? runningUntilOf(first) : undefined
  for (;;) {
    if (due === undefined) due = (yield* notices.next()).value as number
    yield* sleep(Math.max(0, due - Date.now()))
    const stored = yield* read()
    const runningUntil = stored ? runningUntilOf(stored) : undefined
    if (!stored || runningUntil === undefined) {
      due = undefined
      continue
    }
    if (!leaseLapsed(runningUntil)) {
      due = runningUntil
      continue
    }
    yield* takeOver(stored)
    // Taken over here and run, or by another watcher first: the record says which, now.
    due = Date.now()
  }
}

/** The end of the lease of a call's round being run, if it is being run. */
function runningUntilOf(stored: StoredSession): number | undefined {
  if (stored.record.status !== 'running') return undefined
  return (stored.record.params as { runningUntil?: number }).runningUntil
}
