import { createSignal, ensure, resource, type Operation, type Signal, type Subscription } from 'effection'
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
   * The ids of `clientId`'s calls announced from now on, on any instance, for as long as the
   * calling scope lasts. `undefined` says that some may have been missed (the instance's
   * subscription was down a while): the listener should look at every call it follows again.
   */
  heard(clientId: string): Operation<Subscription<string | undefined, never>>
}

/** Each client's listeners in this process, told what reaches it. */
export interface CallEndListeners {
  heard(clientId: string): Operation<Subscription<string | undefined, never>>
  /** Tells `clientId`'s listeners that `callId` was stopped or answered. */
  tell(clientId: string, callId: string): void
  /** Tells every listener that something may have been missed. */
  tellAll(): void
}

export function createCallEndListeners(): CallEndListeners {
  const listeners = new Map<string, Set<Signal<string | undefined, never>>>()
  return {
    heard: (clientId) =>
      resource(function* (provide) {
        const signal = createSignal<string | undefined, never>()
        // Subscribed before it is told anything: nothing sent to it is lost.
        const subscription = yield* signal
        const own = listeners.get(clientId) ?? new Set()
        listeners.set(clientId, own.add(signal))
        yield* ensure(() => {
          own.delete(signal)
          if (own.size === 0 && listeners.get(clientId) === own) listeners.delete(clientId)
        })
        yield* provide(subscription)
      }),
    tell(clientId, callId) {
      for (const signal of listeners.get(clientId) ?? []) signal.send(callId)
    },
    tellAll() {
      for (const own of listeners.values()) for (const signal of own) signal.send(undefined)
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
    heard: listeners.heard,
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
