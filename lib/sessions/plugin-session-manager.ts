import { resource, sleep, spawn, useScope, withResolvers, type Operation } from 'effection'
import type { AnyMcpTool } from '../tools/types'
import {
  isTerminal,
  startPluginSession,
  type PluginSession,
  type PluginSessionRuntime,
  type PluginSessionStatus,
} from './plugin-session'
import { createInMemorySessionStore, type ToolSessionStore } from './tool-session-store'

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000

export interface PluginSessionInfo {
  id: string
  toolName: string
  status: PluginSessionStatus
  ageMs: number
  idleMs: number
}

export interface CreatePluginSessionConfig {
  tool: AnyMcpTool
  params: unknown
  callId: string
  clientId: string
  runtime: PluginSessionRuntime
}

/** Why a session that is no longer here ended, when it was ended on purpose. */
export interface EndedSession {
  reason: string
}

export interface PluginSessionManager {
  create(config: CreatePluginSessionConfig): Operation<PluginSession>
  /** The session, only for the client that started it. */
  get(clientId: string, sessionId: string): Operation<PluginSession | undefined>
  /** Mark a session active now (it is waiting again), postponing its idle expiry. */
  touch(session: PluginSession): Operation<void>
  abort(clientId: string, sessionId: string, reason?: string): Operation<boolean>
  /** Why a recently aborted or expired session ended; undefined when it is unknown. */
  ended(clientId: string, sessionId: string): EndedSession | undefined
  listActive(): Operation<PluginSessionInfo[]>
}

export interface PluginSessionManagerOptions {
  store?: ToolSessionStore
  /** A session nobody answers is aborted after this long (default 30 minutes). */
  idleTimeoutMs?: number
  now?: () => number
}

const ENDED_MEMORY = 10_000

/**
 * Keeps plugin sessions alive between requests, in the scope of this resource: when the
 * resource ends, every session is halted. Idle sessions expire through a single timer set
 * for the oldest one, never a timer or poll per session.
 */
export function usePluginSessionManager({
  store = createInMemorySessionStore(),
  idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS,
  now = Date.now,
}: PluginSessionManagerOptions = {}): Operation<PluginSessionManager> {
  return resource(function* (provide) {
    const scope = yield* useScope()
    const endedSessions = new Map<string, EndedSession>()
    let wakeExpiry: (() => void) | undefined

    const keyOf = (clientId: string, sessionId: string) => `${clientId}\u0000${sessionId}`

    function remember(key: string, reason: string) {
      endedSessions.set(key, { reason })
      if (endedSessions.size > ENDED_MEMORY) {
        const first = endedSessions.keys().next()
        if (!first.done) endedSessions.delete(first.value)
      }
    }

    function* abortEntry(session: PluginSession, reason: string) {
      remember(keyOf(session.clientId, session.id), reason)
      yield* session.abort(reason)
      yield* store.delete(keyOf(session.clientId, session.id))
    }

    yield* spawn(function* expireIdleSessions() {
      while (true) {
        const oldest = yield* store.oldest()
        if (!oldest) {
          const woken = withResolvers<void>('a session to expire')
          wakeExpiry = woken.resolve
          yield* woken.operation
          continue
        }
        const wait = oldest.lastActiveAt + idleTimeoutMs - now()
        if (wait > 0) {
          yield* sleep(wait)
          continue
        }
        yield* abortEntry(
          oldest.session,
          `The ${oldest.session.toolName} session expired after ${Math.round(idleTimeoutMs / 1000)} s without an answer.`,
        )
      }
    })

    const manager: PluginSessionManager = {
      *create({ tool, params, callId, clientId, runtime }) {
        const key = keyOf(clientId, callId)
        if (yield* store.get(key)) throw new Error(`A session for tool call ${callId} already exists.`)
        const session = startPluginSession({
          scope,
          tool,
          params,
          callId,
          clientId,
          runtime,
          now: now(),
          onEnd: (ended) => {
            // The store is in-process here; a remote store would clean up on its own expiry.
            scope.run(() => store.delete(keyOf(ended.clientId, ended.id)))
          },
        })
        if (!isTerminal(session.status())) {
          yield* store.set(key, { session, lastActiveAt: now() })
          wakeExpiry?.()
          wakeExpiry = undefined
        }
        return session
      },
      *get(clientId, sessionId) {
        return (yield* store.get(keyOf(clientId, sessionId)))?.session
      },
      *touch(session) {
        yield* store.touch(keyOf(session.clientId, session.id), now())
      },
      *abort(clientId, sessionId, reason = 'Stopped by the user.') {
        const entry = yield* store.get(keyOf(clientId, sessionId))
        if (!entry) return false
        yield* abortEntry(entry.session, reason)
        return true
      },
      ended: (clientId, sessionId) => endedSessions.get(keyOf(clientId, sessionId)),
      *listActive() {
        const at = now()
        return (yield* store.list()).map(({ session, lastActiveAt }) => ({
          id: session.id,
          toolName: session.toolName,
          status: session.status(),
          ageMs: at - session.createdAt,
          idleMs: at - lastActiveAt,
        }))
      },
    }

    // Ending this resource ends its scope, which halts every session task still running.
    yield* provide(manager)
  })
}
