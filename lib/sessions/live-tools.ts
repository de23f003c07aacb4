import { resource, spawn, useScope, withResolvers, type Operation } from 'effection'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { AnyMcpTool } from '../tools/types'
import { useDueQueue } from './due-queue'
import { LiveSession, type SessionRuntime, type StartLiveSessionOptions } from './live-session'
import { eventLoopTick } from './event-loop-tick'
import { RENEW_EVERY } from './lease'
import type { SessionStore, StoredSession } from './session-store'
import type { SessionTiming } from './session-writer'

/** The tools of recent sessions alive in this process (`useLiveTools`), by client and call id. */
export interface LiveTools {
  get(clientId: string, id: string): LiveSession | undefined
  /** Run the tool of `stored` in this process, not yet the cache's: `remember` it once it is (a new session: once it is created). */
  run(options: { tool: AnyMcpTool; stored: StoredSession; parentMessages: readonly ExtendedMessage[]; limits?: StartLiveSessionOptions['limits'] }): LiveSession
  /** Make `session` the cache's tool for its call. */
  remember(session: LiveSession): LiveSession
  /** The tool waits now: dropped from memory after the hot time or, `pinned` (it cannot be replayed), ended at its idle time-out. */
  waits(session: LiveSession, options: { pinned: boolean }): void
  /** The tool no longer waits (it is being answered): it runs, under its lease. */
  answering(session: LiveSession): void
  /** Let go of the call's tool, if one is here; its record stays. */
  forget(clientId: string, id: string): Operation<void>
}

/**
 * The tools of recent plugin sessions, kept alive in this process as a cache of their records
 * (the records are the truth; a tool not here is replayed from its journal). Ending the resource
 * halts every tool still here; their records stay.
 *
 * Invariants: at most one tool per call is the cache's; a waiting tool is dropped from memory
 * after the hot time, except a `pinned` one (a live-only tool whose outside work began, which a
 * replay could not redo), which is ended at its idle time-out instead, cancelling that work; a
 * result a tool received is written by the next turn of the event loop even when no request
 * drives the tool; the lease of a tool running here is renewed every third of it until it waits
 * or ends. Each of these is one loop with at most one timer, whatever the number of tools.
 */
export function useLiveTools({
  store,
  runtime,
  timing,
  hotMs,
  expiredReason,
}: {
  store: SessionStore
  runtime: SessionRuntime
  timing: SessionTiming
  /** A waiting tool is kept this long (at most its idle time-out); after that, an answer replays it. */
  hotMs: number
  /** Why a pinned tool ended at its idle time-out, as its driver hears it. */
  expiredReason(toolName: string): string
}): Operation<LiveTools> {
  return resource(function* (provide) {
    const scope = yield* useScope()
    const keyOf = (clientId: string, id: string) => `${clientId}\u0000${id}`
    const live = new Map<string, LiveSession>()

    const cold = yield* useDueQueue({
      delayMs: Math.min(hotMs, timing.idleTimeoutMs),
      now: timing.now,
      waitingFor: 'a session to drop from memory',
      *onDue(key) {
        const session = live.get(key)
        if (session) yield* session.dehydrate()
      },
    })
    const expiring = yield* useDueQueue({
      delayMs: timing.idleTimeoutMs,
      now: timing.now,
      waitingFor: 'a session to end at its idle time-out',
      *onDue(key) {
        const session = live.get(key)
        if (session?.waiting) yield* session.halt(expiredReason(session.toolName))
      },
    })

    // The lease of a tool running here is renewed every third of it while it runs: a slow step
    // or model call is not taken over from a live process (lease.ts).
    const renewing = yield* useDueQueue({
      delayMs: timing.leaseMs * RENEW_EVERY,
      now: timing.now,
      waitingFor: 'a running session to renew the lease of',
      *onDue(key) {
        const session = live.get(key)
        if (session && (yield* session.renewLease())) renewing.add(key)
      },
    })

    /** Tools alive here that received a result not written yet (see `LiveSession.flush`). */
    const unwritten = new Set<LiveSession>()
    let wakeWriter: (() => void) | undefined
    // A result a tool received is written with its next write, or by the request driving it
    // before any of its events; this loop makes sure it is written by the next turn of the event
    // loop even when no request drives the tool (a branch still working after another asked).
    yield* spawn(function* writeDeferredResults() {
      while (true) {
        if (unwritten.size === 0) {
          const woken = withResolvers<void>('a session to write')
          wakeWriter = woken.resolve
          yield* woken.operation
          continue
        }
        yield* eventLoopTick()
        const sessions = [...unwritten]
        unwritten.clear()
        for (const session of sessions) yield* session.flush()
      }
    })

    function unschedule(key: string) {
      cold.delete(key)
      expiring.delete(key)
      renewing.delete(key)
    }

    const tools: LiveTools = {
      get: (clientId, id) => live.get(keyOf(clientId, id)),

      run({ tool, stored, parentMessages, limits }) {
        return new LiveSession({
          scope,
          store,
          tool,
          stored,
          runtime,
          parentMessages,
          timing,
          limits,
          onUnwritten: (session) => {
            unwritten.add(session)
            wakeWriter?.()
            wakeWriter = undefined
          },
          onEnd: (ended) => {
            const key = keyOf(ended.clientId, ended.id)
            // Only the cache's own entry: a tool refused at its start never replaced it.
            if (live.get(key) !== ended) return
            live.delete(key)
            unschedule(key)
          },
        })
      },

      remember(session) {
        const key = keyOf(session.clientId, session.id)
        live.set(key, session)
        if (!session.waiting) renewing.add(key)
        return session
      },

      waits(session, { pinned }) {
        const key = keyOf(session.clientId, session.id)
        if (live.get(key) !== session) return
        unschedule(key)
        if (pinned) expiring.add(key)
        else cold.add(key)
      },

      answering(session) {
        const key = keyOf(session.clientId, session.id)
        unschedule(key)
        renewing.add(key)
      },

      *forget(clientId, id) {
        const key = keyOf(clientId, id)
        unschedule(key)
        const session = live.get(key)
        live.delete(key)
        if (session) yield* session.dehydrate()
      },
    }

    // Ending this resource ends its scope, which halts every tool still in memory.
    yield* provide(tools)
  })
}
