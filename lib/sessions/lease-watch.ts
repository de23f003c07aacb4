import { sleep, type Operation, type Subscription } from 'effection'
import { leaseLapsed } from './lease'

/**
 * Watches a kept call's rounds (call-records.ts) from a stream of it, so that a round whose runner
 * died is run again: each notice is the end of a round's lease (`runningUntil`, announced when
 * its round starts); at that moment — a deadline, never a poll — the call is read once. Still
 * running with its lease passed: `takeOver` (a compare-and-set on the version just read, which of
 * several watchers on several instances one wins). Still running with its lease moved on (renewed
 * by its runner, or taken over by another watcher): read again at its new end. Anything else
 * (waiting, completed, gone): nothing to do until the next notice.
 *
 * `first` is the call as the stream found it (a resumed stream), checked as a notice is: a
 * client reconnecting after its runner died finds the round to take over.
 */
export function* watchLease<Kept extends { runningUntil?: number }>({
  notices,
  first,
  read,
  takeOver,
}: {
  notices: Subscription<number, never>
  first?: Kept
  /** The call now; its `runningUntil` is set only while a round of it runs. */
  read(): Operation<Kept | undefined>
  /** Takes the round over from `kept` (compare-and-set on its version) and runs it, to its end. */
  takeOver(kept: Kept): Operation<void>
}): Operation<void> {
  let due = first?.runningUntil
  for (;;) {
    if (due === undefined) due = (yield* notices.next()).value as number
    yield* sleep(Math.max(0, due - Date.now()))
    const kept = yield* read()
    const runningUntil = kept?.runningUntil
    if (!kept || runningUntil === undefined) {
      due = undefined
      continue
    }
    if (!leaseLapsed(runningUntil)) {
      due = runningUntil
      continue
    }
    yield* takeOver(kept)
    // Taken over here and run, or by another watcher first: the call says which, now.
    due = Date.now()
  }
}
