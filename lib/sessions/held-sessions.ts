import type { Operation } from 'effection'
import { SessionLimitError } from './errors'
import { keptRecord, type SessionRecord } from './session-record'
import type { SessionStore } from './session-store'

/** Whom a held session is counted against: the client address it was opened from, or the bearer token's principal. */
export interface SessionHolder {
  kind: 'address' | 'token'
  /** The address key (`clientAddressOf`: an IPv4 address, an IPv6 /64) or the token's principal. */
  id: string
}

/** A held session as loaded for a request: its data, when it was last used, and the version to write it back with. */
export interface HeldSession<Data> {
  id: string
  data: Data
  usedAt: number
  version: number
}

/** Why a new session was refused: a holder's own cap, or the server's, with when a place may come free. */
export type HeldSessionRefusal =
  | { full: 'holder'; holder: SessionHolder; held: number; retryAfterMs: number }
  | { full: 'server'; held: number; retryAfterMs: number }

/**
 * Reserved client ids under which held sessions are kept in the `SessionStore`: no browser
 * identity is ever one of these (they contain spaces; the names are the MCP server's, whose 2025
 * sessions are the ones held this way: records written under them stay readable). The session's data is the record's
 * `params` (a record's "arguments" field, here the session's own), `status: 'waiting'` while it
 * lives, `expiresAt` (= `keepUntil`) its idle deadline, moved as it is used, and `updatedAt` when
 * it was last used. A slot is a record per (holder, session) with the same expiry, under the
 * holder's client id: the store's own counted `create` then caps each holder's sessions
 * atomically, across every instance, and its `openOf` lists them least recently used first.
 */
const SESSIONS = 'mcp sessions'
const holderClientId = (holder: SessionHolder | 'server') => (holder === 'server' ? 'mcp holder server' : `mcp holder ${holder.kind} ${holder.id}`)
const RECORD_TOOL = 'mcp-session'

export interface HeldSessionsOptions {
  /** At most this many sessions per holder. */
  perHolder: number
  /** At most this many sessions in all. */
  total: number
  /** A session unused this long expires. */
  idleMs: number
  /** A holder over its cap: its own sessions unused this long are ended to make room. */
  ownIdleMs: number
}

/**
 * Sessions of a protocol served over stateless requests (MCP's 2025 sessions: mcp-endpoint.ts in
 * lib/mcp/server), held as records in the store the tool sessions use, so that any instance
 * serves any session and a restart loses none; `Data` is what the protocol keeps of one (JSON),
 * with the holders it is counted against.
 *
 * Invariants: a session exists while its record does and is not past `expiresAt`; ending it
 * (DELETE, eviction) deletes its record, then its slots, so every instance answers 404 for it
 * from its next request on. A holder never has more than `perHolder` live slots, nor the server
 * more than `total` (each slot is created by the store's counted `create`, one atomic step; a
 * refused reservation deletes the slots it took). Use is written at most every `touchMs`, so a
 * request costs one read of the store, and a write now and then.
 */
export class HeldSessions<Data extends { holders: readonly SessionHolder[] }> {
  private readonly touchMs: number

  constructor(
    private readonly store: SessionStore,
    private readonly options: HeldSessionsOptions,
  ) {
    this.touchMs = Math.max(1, Math.min(options.ownIdleMs, options.idleMs) / 10)
  }

  /**
   * Takes a slot for session `id` under each of `holders` and the server's cap, or says which cap
   * is full. A holder at its cap first ends its own sessions unused for `ownIdleMs`, least
   * recently used first, as many as it takes.
   */
  *reserve({ id, holders, now }: { id: string; holders: readonly SessionHolder[]; now: number }): Operation<HeldSessionRefusal | undefined> {
    const taken: Array<SessionHolder | 'server'> = []
    for (const holder of [...holders, 'server' as const]) {
      const cap = holder === 'server' ? this.options.total : this.options.perHolder
      let refused = yield* this.takeSlot(holder, id, cap, now)
      if (refused && holder !== 'server') {
        const idle = (yield* this.store.openOf({ clientId: holderClientId(holder), now, limit: cap })).filter(
          (slot) => slot.expiresAt - this.options.idleMs <= now - this.options.ownIdleMs,
        )
        for (const slot of idle.slice(0, refused.held - cap + 1)) yield* this.end(slot.id)
        if (idle.length > 0) refused = yield* this.takeSlot(holder, id, cap, now)
      }
      if (refused) {
        for (const done of taken) yield* this.store.delete(holderClientId(done), id)
        const slots = yield* this.store.openOf({ clientId: holderClientId(holder), now, limit: 1 })
        const leastRecent = slots[0] ? slots[0].expiresAt - this.options.idleMs : now
        const retryAfterMs = holder === 'server' ? leastRecent + this.options.idleMs - now : leastRecent + this.options.ownIdleMs - now
        return holder === 'server' ? { full: 'server', held: refused.held, retryAfterMs } : { full: 'holder', holder, held: refused.held, retryAfterMs }
      }
      taken.push(holder)
    }
    return undefined
  }

  /** How many sessions are open on every instance of the store: the server's slots, which its cap counts. */
  *countOpen(now: number): Operation<number> {
    return (yield* this.store.countOpen({ clientId: holderClientId('server'), now })).client
  }

  /** Gives back the slots `reserve` took for a request that opened no session. */
  *release({ id, holders }: { id: string; holders: readonly SessionHolder[] }): Operation<void> {
    for (const holder of [...holders, 'server' as const]) yield* this.store.delete(holderClientId(holder), id)
  }

  /** Records the session `reserve` made room for, now that its `initialize` succeeded. */
  *open({ id, data, now }: { id: string; data: Data; now: number }): Operation<void> {
    yield* this.store.create(this.recordOf(id, data, now))
  }

  /** The session, if it lives; an expired one is ended on the way. */
  *load(id: string, now: number): Operation<HeldSession<Data> | undefined> {
    const stored = yield* this.store.get(SESSIONS, id)
    if (!stored) return undefined
    const { record, version } = stored
    if (record.expiresAt <= now) {
      yield* this.end(id)
      return undefined
    }
    return { id, data: record.params as Data, usedAt: record.updatedAt, version }
  }

  /** Marks the session used at `now`, when its last mark is older than `touchMs`: its idle deadline moves. */
  *touch(session: HeldSession<Data>, now: number): Operation<void> {
    if (now - session.usedAt < this.touchMs) return
    const version = yield* this.store.update(this.recordOf(session.id, session.data, now), session.version)
    // Another request marked it meanwhile: its mark stands.
    if (version === undefined) return
    session.version = version
    session.usedAt = now
    for (const holder of [...session.data.holders, 'server' as const]) {
      const slot = yield* this.store.get(holderClientId(holder), session.id)
      if (slot) yield* this.store.update(this.slotOf(holder, session.id, now), slot.version)
    }
  }

  /** Changes the session's data (`change` of what it holds now, compare-and-set, tried again when another write came first), for every instance to see. */
  *update(id: string, change: (data: Data) => Data): Operation<void> {
    for (let tries = 0; tries < 5; tries++) {
      const stored = yield* this.store.get(SESSIONS, id)
      if (!stored) return
      const data = change(stored.record.params as Data)
      const record = { ...stored.record, params: data }
      if ((yield* this.store.update(record, stored.version)) !== undefined) return
    }
  }

  /** Ends the session everywhere: its record, then its slots. Ending it again does nothing. */
  *end(id: string): Operation<void> {
    const stored = yield* this.store.get(SESSIONS, id)
    yield* this.store.delete(SESSIONS, id)
    const holders = stored ? (stored.record.params as Data).holders : []
    for (const holder of [...holders, 'server' as const]) yield* this.store.delete(holderClientId(holder), id)
  }

  /** A slot under `holder`, unless the holder has `cap` already: then how many it has. */
  private *takeSlot(holder: SessionHolder | 'server', id: string, cap: number, now: number): Operation<{ held: number } | undefined> {
    try {
      yield* this.store.create(this.slotOf(holder, id, now), { perClient: cap, now })
      return undefined
    } catch (error) {
      if (!(error instanceof SessionLimitError)) throw error
      const { client } = yield* this.store.countOpen({ clientId: holderClientId(holder), now })
      return { held: client }
    }
  }

  private recordOf(id: string, data: Data, usedAt: number): SessionRecord {
    return { ...this.slotOf('server', id, usedAt), clientId: SESSIONS, params: data }
  }

  private slotOf(holder: SessionHolder | 'server', id: string, usedAt: number): SessionRecord {
    return keptRecord({ clientId: holderClientId(holder), id, toolName: RECORD_TOOL, params: null, status: 'waiting', now: usedAt, keepUntil: usedAt + this.options.idleMs })
  }
}
