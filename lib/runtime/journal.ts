import type { ElicitAnswer } from '../tools/types'
import { ReplayDivergenceError } from './errors'

/**
 * One result a tool received through its ctx, numbered by its ctx call (`seq`). A replay
 * hands these back instead of asking again, so nothing recorded is ever redone.
 */
export type JournalEntry =
  | { seq: number; kind: 'elicit'; key: string; answer: ElicitAnswer<unknown> }
  | { seq: number; kind: 'sample'; text: string; usage?: { inputTokens?: number; outputTokens?: number } }
  | { seq: number; kind: 'step'; name: string; value: unknown }

type Kind = JournalEntry['kind']

/**
 * What a tool did before, read back in order while it runs again. Every ctx call up to the
 * last recorded one (the horizon) is replayed; after it, calls are live. A replay must make
 * the same calls as the run it replays: anything else is a `ReplayDivergenceError` naming the
 * call, never a silently wrong answer.
 */
export class ToolJournal {
  private readonly bySeq = new Map<number, JournalEntry>()
  /** The seq of the last recorded ctx call; later calls are live. */
  readonly horizon: number

  constructor(
    private readonly toolName: string,
    entries: readonly JournalEntry[] = [],
  ) {
    let horizon = 0
    for (const entry of entries) {
      this.bySeq.set(entry.seq, entry)
      horizon = Math.max(horizon, entry.seq)
    }
    this.horizon = horizon
  }

  /**
   * The recorded result of ctx call `seq`, if it is replayed; undefined when the call is live.
   * `name` is the elicitation key or the step name, which must match too.
   */
  replay<K extends Kind>(seq: number, kind: K, name?: string): Extract<JournalEntry, { kind: K }> | undefined {
    if (seq > this.horizon) return undefined
    const entry = this.bySeq.get(seq)
    const asked = describe(kind, name)
    if (!entry) throw this.diverged(seq, asked, 'a log or progress report')
    const recordedName = entry.kind === 'elicit' ? entry.key : entry.kind === 'step' ? entry.name : undefined
    if (entry.kind !== kind || recordedName !== name) throw this.diverged(seq, asked, describe(entry.kind, recordedName))
    return entry as Extract<JournalEntry, { kind: K }>
  }

  /** Whether a log or progress report at `seq` was already sent (and so is not sent again). */
  replayed(seq: number, what: 'log' | 'notify'): boolean {
    if (seq > this.horizon) return false
    const entry = this.bySeq.get(seq)
    if (entry) throw this.diverged(seq, what === 'log' ? 'a log' : 'a progress report', describe(entry.kind, entry.kind === 'elicit' ? entry.key : entry.kind === 'step' ? entry.name : undefined))
    return true
  }

  private diverged(seq: number, asked: string, recorded: string): ReplayDivergenceError {
    return new ReplayDivergenceError(
      `Replaying "${this.toolName}" went another way at ctx call ${seq}: it asked for ${asked}, but the journal recorded ${recorded}. ` +
        'A tool must do the same on every run: put whatever may differ (ids, random choices, clocks, outside calls) in ctx.step.',
      seq,
    )
  }
}

function describe(kind: Kind, name: string | undefined): string {
  switch (kind) {
    case 'elicit':
      return `the answer to '${name}'`
    case 'sample':
      return 'a model answer'
    case 'step':
      return `step '${name}'`
  }
}
