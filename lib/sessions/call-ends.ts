import type { Operation } from 'effection'
import type { ReportFailure } from './report-failure'

/**
 * Word, passed between instances, that a tool call no longer waits as it did: it was stopped
 * (`PluginSessionManager.abort`, which announces each stop it writes: a Stop from any of the
 * person's pages, a new message that moves on from it, an operator's End) or the question it
 * waited on was answered (`PluginSessionManager.answer`, once per answer it accepts), so that a
 * page following that call (`GET /api/chats/:id/waiting`) learns it at once. It carries no
 * state: whoever hears it reads the call's record, which is the truth.
 *
 * One instance (the embedded and memory stores): `createLocalCallEnds`, in the process. Several
 * (Redis): `useRedisCallEnds`, Redis pub/sub, each instance passing what it hears to its own.
 */
export interface CallEnds {
  /** Tells every instance sharing the store that `clientId`'s call `callId` was stopped or answered. */
  announce(clientId: string, callId: string): Operation<void>
  /**
   * Tells `listener` the id of each of `clientId`'s calls announced from now on, on any instance,
   * at once, until the returned function is called. `undefined` says that some may have been
   * missed (the instance's subscription was down a while): the listener should look at every call
   * it follows again. A plain function, not a subscription: a watch wakes its one subscription
   * from it, with the other things it waits on, and needs no task more.
   */
  listen(clientId: string, listener: CallEndListener): () => void
}

/** Told each call of a client announced (its id), or `undefined` when some may have been missed. */
export type CallEndListener = (callId: string | undefined) => void

/** Each client's listeners in this process, told what reaches it. */
export interface CallEndListeners {
  listen(clientId: string, listener: CallEndListener): () => void
  /** Tells `clientId`'s listeners that `callId` was stopped or answered. */
  tell(clientId: string, callId: string): void
  /** Tells every listener that something may have been missed. */
  tellAll(): void
}

export function createCallEndListeners(): CallEndListeners {
  const listeners = new Map<string, Set<CallEndListener>>()
  function listen(clientId: string, listener: CallEndListener): () => void {
    // A function of its own each time: the same listener twice is two listeners.
    const own = listeners.get(clientId) ?? new Set()
    const entry: CallEndListener = (callId) => listener(callId)
    listeners.set(clientId, own.add(entry))
    return () => {
      own.delete(entry)
      if (own.size === 0 && listeners.get(clientId) === own) listeners.delete(clientId)
    }
  }
  return {
    listen,
    tell(clientId, callId) {
      for (const listener of listeners.get(clientId) ?? []) listener(callId)
    },
    tellAll() {
      for (const own of listeners.values()) for (const listener of own) listener(undefined)
    },
  }
}

/** `CallEnds` within one process: what is announced is heard here alone. */
export function createLocalCallEnds(): CallEnds {
  const listeners = createCallEndListeners()
  return {
    *announce(clientId, callId) {
      listeners.tell(clientId, callId)
    },
    listen: listeners.listen,
  }
}

/**
 * Announces that `clientId`'s call `callId` was stopped or answered (`what`), as the sessions do
 * for each stop they write and each answer they accept. The record says so either way: if the
 * word cannot be passed (Redis down), a page following the call reads it when it next loads the
 * chat.
 */
export function* announceCall(ends: CallEnds, clientId: string, callId: string, what: 'stopped' | 'answered', report: ReportFailure): Operation<void> {
  try {
    yield* ends.announce(clientId, callId)
  } catch (error) {
    report('call_end_announce_failed', `a call ${what} could not be announced to the other instances`, error)
  }
}
