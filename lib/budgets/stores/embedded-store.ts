import { join } from 'node:path'
import { resource, type Operation } from 'effection'
import { openEmbeddedDatabase } from '../../storage/embedded-database'
import { USAGE_KEPT_DAYS, type BudgetStore, type DayUsage } from '../budget-store'

export interface EmbeddedBudgetStoreOptions {
  /** `DATA_DIR`: the counters are kept in `<directory>/budgets.db`. */
  directory: string
}

/** The database file under `DATA_DIR`: its own, like the devices' (one small row per account a day). */
export const BUDGETS_DATABASE_FILE = 'budgets.db'

const SCHEMA = `
  create table if not exists model_usage (
    day text not null,
    client_id text not null,
    tokens integer not null,
    primary key (day, client_id)
  ) without rowid;
`

/** The UTC day `days` before `day` (`YYYY-MM-DD`). */
function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)
}

/**
 * The default `BudgetStore`: SQLite (libsql) in `DATA_DIR/budgets.db`, kept across restarts,
 * shared by the processes of one machine. An addition is one UPSERT (`tokens = tokens + ?`), so
 * two processes adding at once both count; the first addition of a new day forgets the days
 * before the one kept for the admin's view.
 */
export function useEmbeddedBudgetStore({ directory }: EmbeddedBudgetStoreOptions): Operation<BudgetStore> {
  return resource(function* (provide) {
    const db = yield* openEmbeddedDatabase({
      directory,
      file: BUDGETS_DATABASE_FILE,
      prepare: (opened) => opened.exec(SCHEMA),
      failure: `The model budgets cannot be kept in ${join(directory, BUDGETS_DATABASE_FILE)}`,
    })
    const statements = {
      add: db.prepare<[string, string, number]>(
        'insert into model_usage (day, client_id, tokens) values (?, ?, ?) on conflict (day, client_id) do update set tokens = tokens + excluded.tokens',
      ),
      used: db.prepare<[string, string]>('select tokens from model_usage where day = ? and client_id = ?'),
      usage: db.prepare<[string]>('select client_id, tokens from model_usage where day = ? order by tokens desc, client_id'),
      forget: db.prepare<[string]>('delete from model_usage where day <= ?'),
    }
    let latestDay = ''

    yield* provide({
      kind: 'embedded',
      *add(clientId, day, tokens) {
        if (day > latestDay) {
          latestDay = day
          statements.forget.run(daysBefore(day, USAGE_KEPT_DAYS))
        }
        statements.add.run(day, clientId, tokens)
      },
      *used(clientId, day) {
        return (statements.used.get(day, clientId) as { tokens: number } | undefined)?.tokens ?? 0
      },
      *usage(day) {
        return (statements.usage.all(day) as Array<{ client_id: string; tokens: number }>).map((row): DayUsage => ({ clientId: row.client_id, tokens: row.tokens }))
      },
    })
  })
}
