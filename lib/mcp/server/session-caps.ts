/** Whom a 2025 session is counted against: the client address it was opened from, or the bearer token's principal. */
export interface SessionHolder {
  kind: 'address' | 'token'
  /** The address key (`clientAddressOf`: an IPv4 address, an IPv6 /64) or the token's principal. */
  id: string
}

/** A place taken for a session being opened: `open` it under the session's id once it has one, or `release` it. */
export interface SessionSlot {
  open(sessionId: string): void
  release(): void
}

export type SessionReservation =
  | { ok: true; slot: SessionSlot }
  /** `holder` has `held` sessions open or being opened: its own cap. */
  | { ok: false; full: 'holder'; holder: SessionHolder; held: number }
  /** The server has `held` sessions open or being opened: the cap for everyone together. */
  | { ok: false; full: 'server'; held: number }

/**
 * How many 2025 sessions each client holds, and the server in all, with a cap on each: one
 * client (an address; with a bearer token, also the token) may hold at most `perHolder`
 * sessions, so a greedy one cannot take the whole server's `total` from everyone else.
 *
 * Invariant: a holder's count is the number of its sessions opened and not yet forgotten, plus
 * its slots reserved and not yet opened or released; the server's count is the same over all
 * sessions and slots. `reserve` checks every cap and takes the slot in one synchronous step, so
 * requests arriving together cannot pass a cap together; `forget` may be called any number of
 * times for a session (a DELETE, a close, an eviction) and counts it down once. Holders with
 * nothing open are not remembered: memory is bounded by the sessions and slots themselves.
 */
export class SessionCaps {
  private readonly holders = new Map<string, { holder: SessionHolder; sessions: Set<string>; opening: number }>()
  private readonly sessionHolders = new Map<string, readonly string[]>()
  private opening = 0

  constructor(private readonly limits: { perHolder: number; total: number }) {}

  /** Sessions open and being opened, on the whole server. */
  get held(): number {
    return this.sessionHolders.size + this.opening
  }

  /** Sessions open and being opened by `holder`. */
  heldBy(holder: SessionHolder): number {
    const entry = this.holders.get(keyOf(holder))
    return entry ? entry.sessions.size + entry.opening : 0
  }

  /** The ids of the sessions `holder` has open (at most `perHolder` of them), oldest opened first. */
  sessionsOf(holder: SessionHolder): Iterable<string> {
    return this.holders.get(keyOf(holder))?.sessions ?? []
  }

  /** A slot for a session `holders` are opening, or which cap is full. */
  reserve(holders: readonly SessionHolder[]): SessionReservation {
    for (const holder of holders) {
      const held = this.heldBy(holder)
      if (held >= this.limits.perHolder) return { ok: false, full: 'holder', holder, held }
    }
    if (this.held >= this.limits.total) return { ok: false, full: 'server', held: this.held }
    const keys = holders.map(keyOf)
    for (const [index, key] of keys.entries()) {
      const entry = this.holders.get(key) ?? { holder: holders[index]!, sessions: new Set<string>(), opening: 0 }
      entry.opening += 1
      this.holders.set(key, entry)
    }
    this.opening += 1
    let state: 'reserved' | 'done' = 'reserved'
    const settle = () => {
      if (state === 'done') return false
      state = 'done'
      this.opening -= 1
      for (const key of keys) this.holders.get(key)!.opening -= 1
      return true
    }
    return {
      ok: true,
      slot: {
        open: (sessionId) => {
          if (!settle()) return
          for (const key of keys) this.holders.get(key)!.sessions.add(sessionId)
          this.sessionHolders.set(sessionId, keys)
        },
        release: () => {
          if (settle()) for (const key of keys) this.drop(key)
        },
      },
    }
  }

  /** `sessionId` is closed: its holders' counts go down (once, however often it is called). */
  forget(sessionId: string): void {
    const keys = this.sessionHolders.get(sessionId)
    if (!keys) return
    this.sessionHolders.delete(sessionId)
    for (const key of keys) {
      this.holders.get(key)?.sessions.delete(sessionId)
      this.drop(key)
    }
  }

  private drop(key: string): void {
    const entry = this.holders.get(key)
    if (entry && entry.opening === 0 && entry.sessions.size === 0) this.holders.delete(key)
  }
}

function keyOf(holder: SessionHolder): string {
  return `${holder.kind} ${holder.id}`
}
