import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server'
import type { HeldSession, SessionHolder } from '../../sessions/held-sessions'

/**
 * What a 2025 session is, as data: enough for any instance to serve it as the one that opened it.
 * Held by the session layer (`HeldSessions`, lib/sessions/held-sessions.ts): capped per holder
 * and in all, expired when unused, shared by every instance of the store.
 */
export interface McpSessionData {
  /** The `initialize` params the client sent: replayed through a fresh SDK server to restore its state (restore-session.ts). */
  initialize: { protocolVersion: string; capabilities: ClientCapabilities; clientInfo: Implementation }
  /** The protocol version the server answered with. */
  protocolVersion: string
  /** The level `logging/setLevel` last set, if any: logs below it are not sent. */
  loggingLevel?: LoggingLevel
  /** The bearer token's principal (`authInfo.clientId`), '' without a token: a call's state is sealed for it. */
  owner: string
  /** Whom the session is counted against: each holds a slot record for it. */
  holders: SessionHolder[]
}

/** A 2025 session as loaded for a request: its data, when it was last used, and the version to write it back with. */
export type LoadedMcpSession = HeldSession<McpSessionData>
