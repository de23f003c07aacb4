import { ensure, resource, type Operation } from 'effection'
import { createStoreClient } from '../../storage/redis-client'
import { BudgetStoreUnavailableError, USAGE_KEPT_DAYS, type BudgetStore } from '../budget-store'

export interface RedisBudgetStoreOptions {
  /** `REDIS_URL`. */
  url: string
  /** Put before every key, so that several apps can share one Redis (the session store's default too). */
  prefix?: string
}

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 1000

/**
 * A `BudgetStore` in Redis, shared by every instance on the same Redis and prefix: one sorted set
 * per UTC day, `<prefix>model-usage:<day>`, account → tokens. An addition is `ZINCRBY` and
 * `EXPIRE` in one transaction (atomic: two instances adding at once both count), so a day's set
 * is gone two days after it was last added to. While Redis is unreachable every call fails at
 * once with `BudgetStoreUnavailableError`; at start, naming the URL.
 */
export function useRedisBudgetStore({ url, prefix = 'elicit:' }: RedisBudgetStoreOptions): Operation<BudgetStore> {
  return resource(function* (provide) {
    const redis = createStoreClient({ url, scripts: {}, store: "The model budgets' store", Unavailable: BudgetStoreUnavailableError })
    const { client, command } = redis
    yield* ensure(() => {
      client.destroy()
    })
    yield* redis.connect()
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })
    const keyOf = (day: string) => `${prefix}model-usage:${day}`

    yield* provide({
      kind: 'redis',
      *add(clientId, day, tokens) {
        const key = keyOf(day)
        yield* command(() => timed.multi().zIncrBy(key, tokens, clientId).expire(key, USAGE_KEPT_DAYS * 86_400).exec())
      },
      *used(clientId, day) {
        return (yield* command<number | null>(() => timed.zScore(keyOf(day), clientId))) ?? 0
      },
      *usage(day) {
        const entries = yield* command<Array<{ value: string; score: number }>>(() => timed.zRangeWithScores(keyOf(day), 0, -1, { REV: true }))
        return entries.map(({ value, score }) => ({ clientId: value, tokens: score }))
      },
    })
  })
}
