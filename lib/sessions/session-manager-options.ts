import type { AnyMcpTool } from '../tools/types'
import type { CallEnds } from './call-ends'
import type { ReportFailure } from './report-failure'
import type { SessionRuntime } from './live-session'
import type { SessionStore } from './session-store'

/** What `usePluginSessionManager` is made with: the tools, the store, how long things last, the limits. */
export interface PluginSessionManagerOptions {
  /** A tool by name, for the client whose session it is (their own servers' tools are theirs). */
  tools: (name: string, clientId: string) => AnyMcpTool | undefined
  runtime: SessionRuntime
  store?: SessionStore
  /** A session nobody answers is ended after this long (default 30 minutes). */
  idleTimeoutMs?: number
  /** A waiting tool is kept in memory this long (default one minute); after that, an answer replays it. */
  hotMs?: number
  leaseMs?: number
  keepMs?: number
  /**
   * Open sessions (waiting, or running within their lease) at most, per client and on the whole
   * store: a tool call past either gets `SessionLimitError` from `start`. Both are counted by the
   * store in the same atomic step that creates the session (`SessionStore.create`), so requests
   * at the same moment cannot pass a limit together. Unset: no limit.
   */
  limits?: SessionLimits
  /** This server instance's name, written in each record it writes (`WaitingCall.instance`). */
  instance?: string
  /**
   * Where each session this manager stops (`abort`: a Stop, a person moving on, an operator's
   * End, a turn cut short) or whose question it takes an answer to (`answer`) is announced, once
   * its record says so, so that a page following the call on any instance learns it at once
   * (`GET /api/chats/:id/waiting`). Unset: not announced.
   */
  ends?: CallEnds
  /** Told of a failure the sessions get over by themselves (a stop or an answer not announced): the server's log at `warn`. */
  report: ReportFailure
  now?: () => number
}

export interface SessionLimits {
  maxOpenPerClient?: number
  maxOpen?: number
}
