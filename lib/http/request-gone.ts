import { once, type Operation } from 'effection'

/**
 * Returns once `signal` aborts: the client went away (or cancelled its request). Raced against
 * the work that answers the request, inside the work's own scope, so that the request going away
 * ends the work from inside — no halt issued from a listener, nothing left unobserved.
 */
export function* requestGone(signal: AbortSignal): Operation<void> {
  if (signal.aborted) return
  yield* once(signal, 'abort')
}
