import { ensure, resource, type Operation } from 'effection'
import { defineScript, type CommandParser } from 'redis'
import { createStoreClient } from '../../storage/redis-client'
import { AuthStoreUnavailableError, type AuthSession, type AuthStore, type SignInFlow } from '../auth-store'

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 1000

// KEYS: the session. ARGV: seen, now. 1 claimed, 0 not (gone, or claimed by another).
const claimCheck = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
local kept = redis.call('GET', KEYS[1])
if not kept then return 0 end
local session = cjson.decode(kept)
if tostring(session.checkedAt) ~= ARGV[1] then return 0 end
session.checkedAt = tonumber(ARGV[2])
redis.call('SET', KEYS[1], cjson.encode(session), 'KEEPTTL')
return 1`,
  parseCommand(parser: CommandParser, key: string, seen: number, now: number) {
    parser.pushKey(key)
    parser.push(String(seen), String(now))
  },
  transformReply: (reply: unknown) => reply as number,
})

/**
 * An `AuthStore` in Redis, shared by every instance on the same Redis and prefix:
 * `<prefix>auth-session:<id>` (JSON, expiring with the session) and `<prefix>auth-flow:<state>`
 * (JSON, expiring with the sign-in; taken with `GETDEL`, so of two callbacks with one state
 * exactly one gets it). Every request reads its session (one GET): a sign-out on any instance
 * holds on all at once. While Redis is unreachable, calls fail with `AuthStoreUnavailableError`.
 */
export function useRedisAuthStore({ url, prefix = 'elicit:' }: { url: string; prefix?: string }): Operation<AuthStore> {
  return resource(function* (provide) {
    const redis = createStoreClient({ url, scripts: { claimCheck }, store: "The sign-in sessions' store", Unavailable: AuthStoreUnavailableError })
    const { client, command } = redis
    yield* ensure(() => client.destroy())
    yield* redis.connect()
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })
    const sessionKey = (id: string) => `${prefix}auth-session:${id}`
    const flowKey = (state: string) => `${prefix}auth-flow:${state}`
    const ttl = (expiresAt: number) => Math.max(1, expiresAt - Date.now())

    yield* provide({
      kind: 'redis',
      *putFlow(flow) {
        yield* command(() => timed.set(flowKey(flow.state), JSON.stringify(flow), { expiration: { type: 'PX', value: ttl(flow.expiresAt) } }))
      },
      *takeFlow(state, now) {
        const kept = yield* command<string | null>(() => timed.getDel(flowKey(state)))
        const flow = kept === null ? undefined : (JSON.parse(kept) as SignInFlow)
        return flow && flow.expiresAt > now ? flow : undefined
      },
      *putSession(session) {
        yield* command(() => timed.set(sessionKey(session.id), JSON.stringify(session), { expiration: { type: 'PX', value: ttl(session.expiresAt) } }))
      },
      *getSession(id, now) {
        const kept = yield* command<string | null>(() => timed.get(sessionKey(id)))
        const session = kept === null ? undefined : (JSON.parse(kept) as AuthSession)
        return session && session.expiresAt > now ? session : undefined
      },
      *claimCheck(id, seen, now) {
        return (yield* command<number>(() => timed.claimCheck(sessionKey(id), seen, now))) === 1
      },
      *endSession(id) {
        yield* command(() => timed.del(sessionKey(id)))
      },
    })
  })
}
