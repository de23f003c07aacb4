import { ensure, resource, type Operation } from 'effection'
import { createStoreClient } from '../../../../storage/redis-client'
import { CredentialStoreUnavailableError, type CredentialStore } from '../credential-store'

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 1000

/**
 * A `CredentialStore` in Redis, shared by every instance on the same Redis and prefix:
 * `<prefix>mcp-credential:<key>`, `<expiresAt or 0>|<sealed text>`, expiring with the value when it has an expiry;
 * taken with `GETDEL`. While Redis is unreachable, calls fail with `CredentialStoreUnavailableError`.
 */
export function useRedisCredentialStore({ url, prefix = 'elicit:' }: { url: string; prefix?: string }): Operation<CredentialStore> {
  return resource(function* (provide) {
    const redis = createStoreClient({ url, scripts: {}, store: "The MCP servers' credentials", Unavailable: CredentialStoreUnavailableError })
    const { client, command } = redis
    yield* ensure(() => client.destroy())
    yield* redis.connect()
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })
    const keyOf = (key: string) => `${prefix}mcp-credential:${key}`
    // The expiry rides with the value too, so a read honours the caller's clock as the other stores do.
    const live = (kept: string | null, now: number) => {
      if (kept === null) return undefined
      const bar = kept.indexOf('|')
      const expiresAt = Number(kept.slice(0, bar))
      return expiresAt > 0 && expiresAt <= now ? undefined : kept.slice(bar + 1)
    }
    yield* provide({
      kind: 'redis',
      *put(key, sealed, expiresAt) {
        const options = expiresAt === undefined ? {} : { expiration: { type: 'PX' as const, value: Math.max(1, expiresAt - Date.now()) } }
        yield* command(() => timed.set(keyOf(key), `${expiresAt ?? 0}|${sealed}`, options))
      },
      *get(key, now) {
        return live(yield* command<string | null>(() => timed.get(keyOf(key))), now)
      },
      *take(key, now) {
        return live(yield* command<string | null>(() => timed.getDel(keyOf(key))), now)
      },
      *delete(key) {
        yield* command(() => timed.del(keyOf(key)))
      },
    })
  })
}
