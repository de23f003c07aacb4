import { createSignal, each, ensure, resource, spawn, until, type Operation } from 'effection'
import { defineScript, type CommandParser } from 'redis'
import { createStoreClient } from '../../storage/redis-client'
import { DeviceStoreUnavailableError, EXPIRED_CODE_KEPT_MS, type DeviceBrowser, type DeviceStore } from '../device-store'

export interface RedisDeviceStoreOptions {
  /** `REDIS_URL`. */
  url: string
  /** Put before every key and the channel, so that several apps can share one Redis (the session store's default too). */
  prefix?: string
  /** Called when this instance learns of a revocation (its own or another instance's): for tests that wait for it. */
  onRevoked?: (identity: string, browserId: string) => void
}

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 1000

/**
 * The keys (`{identity}` is a hash tag: an identity's keys share a cluster slot):
 * - `<prefix>device-code:<hash>`: string `<expiresAt> <identity>`, expiring an hour past the code;
 * - `<prefix>device-codes:{identity}`: sorted set of the identity's codes by `expiresAt` (to count the live ones);
 * - `<prefix>device-browsers:{identity}`: hash, browser id → `{ name, joinedAt }`;
 * - `<prefix>device-revoked`: set of every revoked `<identity>.<browser>`, and the channel of the same name.
 */
function keysOf(prefix: string, identity: string) {
  const tag = `{${encodeURIComponent(identity)}}`
  return { codes: `${prefix}device-codes:${tag}`, browsers: `${prefix}device-browsers:${tag}`, revoked: `${prefix}device-revoked` }
}

function script(keys: number, text: string) {
  return defineScript({
    NUMBER_OF_KEYS: keys,
    SCRIPT: text,
    parseCommand(parser: CommandParser, keyList: string[], args: ReadonlyArray<string | number>) {
      for (const key of keyList) parser.pushKey(key)
      for (const arg of args) parser.push(String(arg))
    },
    transformReply: (reply: unknown) => reply,
  })
}

// KEYS: the identity's codes, the code. ARGV: now, maxLive, hash, expiresAt, value, ttl (ms). 1 kept, 0 too many live.
const addCode = script(
  2,
  `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[6])
return 1`,
)

// KEYS: the identity's browsers. ARGV: id, name, joinedAt, maxBrowsers. 1 added or renamed, 0 too many.
const addBrowser = script(
  1,
  `
local kept = redis.call('HGET', KEYS[1], ARGV[1])
if kept then
  local browser = cjson.decode(kept)
  browser.name = ARGV[2]
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(browser))
  return 1
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({name = ARGV[2], joinedAt = tonumber(ARGV[3])}))
return 1`,
)

// KEYS: the identity's browsers, the revoked set (also the channel). ARGV: id, <identity>.<id>. 1 revoked, 0 no such browser.
const revokeBrowser = script(
  2,
  `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[2])
return 1`,
)

/**
 * A `DeviceStore` in Redis, shared by every instance on the same Redis and prefix. Each change
 * is one command or one Lua script (atomic); a code is taken with `GETDEL` (Redis 6.2), so of two
 * instances taking one code exactly one gets it.
 *
 * Revocation without a round trip per request: every instance holds the set of revoked
 * `<identity>.<browser>` in memory. It subscribes to the channel first, then loads the set
 * (`SMEMBERS`), so no revocation falls between the two; a revoke adds to the set and publishes in
 * one script, and each instance adds what it hears. **Bound**: a revoked browser is refused by
 * every instance as soon as the message reaches it (pub/sub delivery, milliseconds on one
 * network), and by the revoking instance at once. An instance whose subscription dropped
 * (Redis unreachable from it) hears nothing while it is down, and loads the whole set again when
 * its subscription is back; while it is down, that instance's chats and sessions fail with 503
 * too, so what it can still serve a revoked browser is the little that needs no store.
 * The set only grows (a revoked cookie is refused for good): one entry per revoke, which joins
 * bound (codes per identity, join attempts per address, browsers per identity; docs/devices.md).
 *
 * While Redis is unreachable every other call fails at once with `DeviceStoreUnavailableError`
 * (no offline queue; an unanswered command fails after 1 s). Fails at start, naming the URL,
 * when Redis cannot be reached then.
 *
 * Codes and their identity's count are two keys (the code's key has no identity in it, since a
 * code is looked up by itself), so on Redis Cluster `addCode`'s script would cross slots: this
 * store is for one Redis (or a primary with replicas), as the session store is.
 */
export function useRedisDeviceStore({ url, prefix = 'elicit:', onRevoked }: RedisDeviceStoreOptions): Operation<DeviceStore> {
  return resource(function* (provide) {
    const redis = createStoreClient({ url, scripts: { addCode, addBrowser, revokeBrowser }, store: "The devices' store", Unavailable: DeviceStoreUnavailableError })
    const { client, command } = redis
    // The subscriber: a connection of its own (a subscribed connection takes no other commands).
    const subscriber = redis.duplicate()
    const resubscribed = createSignal<void, never>()
    let subscribedOnce = false
    // After a reconnect of either connection, revocations made meanwhile were not heard: load the
    // set again. Both, because the load needs the client and must follow the resubscription: the
    // later of the two readies loads after both are back.
    const reload = () => {
      if (subscribedOnce) resubscribed.send()
    }
    client.on('ready', reload)
    subscriber.on('ready', reload)
    yield* ensure(() => {
      client.destroy()
      subscriber.destroy()
    })
    yield* redis.connect(subscriber)
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })

    const revokedKey = keysOf(prefix, '').revoked
    const revokedSet = new Set<string>()
    const learn = (member: string) => {
      if (revokedSet.has(member)) return
      revokedSet.add(member)
      const dot = member.lastIndexOf('.')
      onRevoked?.(member.slice(0, dot), member.slice(dot + 1))
    }
    function* load(): Operation<void> {
      for (const member of yield* command<string[]>(() => timed.sMembers(revokedKey))) learn(member)
    }
    // Subscribe, then load: a revocation published in between is heard, one made before is loaded.
    yield* until(subscriber.subscribe(revokedKey, (member) => learn(member)))
    subscribedOnce = true
    yield* load()
    yield* spawn(function* () {
      for (const _ of yield* each(resubscribed)) {
        try {
          yield* load()
        } catch {
          // A connection is still down: its 'ready' loads once more.
        }
        yield* each.next()
      }
    })

    yield* provide({
      kind: 'redis',
      *addCode(code, { now, maxLive }) {
        const keys = keysOf(prefix, code.identity)
        const ttl = Math.max(1, code.expiresAt + EXPIRED_CODE_KEPT_MS - now)
        const reply = yield* command<number>(() =>
          timed.addCode([keys.codes, `${prefix}device-code:${code.hash}`], [now, maxLive, code.hash, code.expiresAt, `${code.expiresAt} ${code.identity}`, ttl]),
        )
        return reply === 1
      },
      *takeCode(hash, now) {
        const value = yield* command<string | null>(() => timed.getDel(`${prefix}device-code:${hash}`))
        if (value === null) return undefined
        const space = value.indexOf(' ')
        const expiresAt = Number(value.slice(0, space))
        const identity = value.slice(space + 1)
        yield* command(() => timed.zRem(keysOf(prefix, identity).codes, hash))
        if (expiresAt + EXPIRED_CODE_KEPT_MS <= now) return undefined
        return { identity, expired: expiresAt <= now }
      },
      *addBrowser(identity, browser, { maxBrowsers }) {
        const reply = yield* command<number>(() => timed.addBrowser([keysOf(prefix, identity).browsers], [browser.id, browser.name, browser.joinedAt, maxBrowsers]))
        return reply === 1
      },
      *browsers(identity) {
        const all = yield* command<Record<string, string>>(() => timed.hGetAll(keysOf(prefix, identity).browsers))
        return Object.entries(all)
          .map(([id, json]): DeviceBrowser => {
            const { name, joinedAt } = JSON.parse(json) as { name: string; joinedAt: number }
            return { id, name, joinedAt }
          })
          .sort((a, b) => a.joinedAt - b.joinedAt || (a.id < b.id ? -1 : 1))
      },
      *revoke(identity, browserId) {
        const keys = keysOf(prefix, identity)
        const member = `${identity}.${browserId}`
        const reply = yield* command<number>(() => timed.revokeBrowser([keys.browsers, keys.revoked], [browserId, member]))
        // This instance refuses it at once, not when its own message comes back.
        if (reply === 1) learn(member)
        return reply === 1
      },
      revoked(identity, browserId) {
        return revokedSet.has(`${identity}.${browserId}`)
      },
    })
  })
}
