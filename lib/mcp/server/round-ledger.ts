import type { Operation } from 'effection'
import { SESSION_RECORD_FORMAT, type SessionRecord, type SessionStore } from '../../sessions'

/** The client id under which rounds are kept: no browser identity is ever this. */
const ROUNDS = 'mcp-rounds'

/** What the ledger knows of a round continuing from a state. */
export type RoundClaim = { kind: 'claimed'; version: number } | { kind: 'answered'; result: unknown } | { kind: 'running' }

/**
 * Each requestState is answered once. A round that continues from a state first claims it (a
 * create, which only one of several instances can win); when the round ends, its answer is kept
 * under the state's id until the state expires. The same state presented again gets the kept
 * answer — the same ticket, never a second booking — and one presented while its round still
 * runs is refused.
 */
export class RoundLedger {
  constructor(
    private readonly store: SessionStore,
    private readonly keepMs: number,
  ) {}

  *claim({ stateId, toolName }: { stateId: string; toolName: string }): Operation<RoundClaim> {
    const now = Date.now()
    const record: SessionRecord = {
      format: SESSION_RECORD_FORMAT,
      id: stateId,
      clientId: ROUNDS,
      toolName,
      params: null,
      status: 'running',
      journal: [],
      createdAt: now,
      updatedAt: now,
      expiresAt: now + this.keepMs,
      keepUntil: now + this.keepMs,
    }
    const created = yield* this.store.create(record)
    if (created) return { kind: 'claimed', version: created.version }
    const existing = yield* this.store.get(ROUNDS, stateId)
    if (existing?.record.ending?.kind === 'completed') return { kind: 'answered', result: JSON.parse(existing.record.ending.content) }
    return { kind: 'running' }
  }

  *answer({ stateId, toolName, version, result }: { stateId: string; toolName: string; version: number; result: unknown }): Operation<void> {
    const now = Date.now()
    yield* this.store.update(
      {
        format: SESSION_RECORD_FORMAT,
        id: stateId,
        clientId: ROUNDS,
        toolName,
        params: null,
        status: 'completed',
        journal: [],
        ending: { kind: 'completed', content: JSON.stringify(result) },
        createdAt: now,
        updatedAt: now,
        expiresAt: now + this.keepMs,
        keepUntil: now + this.keepMs,
      },
      version,
    )
  }

  /** A round that failed leaves its state free to be tried again. */
  *release(stateId: string): Operation<void> {
    yield* this.store.delete(ROUNDS, stateId)
  }
}
