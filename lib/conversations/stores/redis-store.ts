import { ensure, resource, type Operation } from 'effection'
import { defineScript, type CommandParser } from 'redis'
import type { Message } from '../../protocol/messages'
import type { ChatSummary } from '../chat'
import type { ConversationStore } from '../conversation-store'
import { chatTooLarge, ConversationStoreUnavailableError, tooManyChats } from '../errors'
import type { ConversationLimits } from '../limits'
import { waitingCalls, waitingChanges } from '../waiting'
import { createStoreClient } from '../../storage/redis-client'
import { assembleTurns, byteLength, decodeEntry, encodeEvents, entriesOf, type EntryKind } from './chat-entries'

export interface RedisConversationStoreOptions {
  /** `REDIS_URL`. */
  url: string
  /** Put before every key, so that several apps can share one Redis (the session store's default too). */
  prefix?: string
}

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 1000
/**
 * A deleted chat's keys expire this long after its undo time: whether it can be restored is
 * decided by the app's clock (`purgeAt`), so the keys must outlive it even if Redis's clock runs ahead.
 */
const EXPIRY_GRACE_MS = 60_000

/** The letter of each kind of entry in the entries list: `i` a turn's input, `b` a batch of events, `e` one event (as written before batches). */
const ENTRY_LETTERS: Record<EntryKind, string> = { input: 'i', events: 'b', event: 'e' }
const ENTRY_KINDS: Record<string, EntryKind> = { i: 'input', b: 'events', e: 'event' }

/**
 * The keys of one owner's chats. `{owner}` is a hash tag: all of an owner's keys are in one
 * slot, so the scripts that read a page of the list (hashes the script names from the sorted
 * set) stay on one node of a cluster.
 * - `<prefix>chats:{owner}`: sorted set of the owner's shown chats (not deleted), scored by `updatedAt`;
 * - `<prefix>chat:{owner}:<id>`: hash, the chat's index entry (title, times, sizes, waiting calls, state);
 * - `<prefix>chat-entries:{owner}:<id>`: list, the turns' entries, `<turn>:<letter>:<json>` (`ENTRY_LETTERS`).
 */
export function redisChatKeys(prefix: string, owner: string, id: string): { chat: string; entries: string; list: string } {
  const tag = `{${encodeURIComponent(owner)}}`
  return { chat: `${prefix}chat:${tag}:${id}`, entries: `${prefix}chat-entries:${tag}:${id}`, list: `${prefix}chats:${tag}` }
}

/** A script over the three keys of a chat, with string arguments. */
function chatScript(script: string) {
  return defineScript({
    NUMBER_OF_KEYS: 3,
    SCRIPT: script,
    parseCommand(parser: CommandParser, keys: { chat: string; entries: string; list: string }, args: ReadonlyArray<string | number>) {
      parser.pushKey(keys.chat)
      parser.pushKey(keys.entries)
      parser.pushKey(keys.list)
      for (const arg of args) parser.push(String(arg))
    },
    transformReply: (reply: unknown) => reply,
  })
}

// ARGV: maxChats, id, title, createdAt, updatedAt, turns, events, bytes, waiting, stateBytes, state ('' none), entries…
// 1 created, 0 taken, -1 too many chats.
const createChat = chatScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'title', ARGV[3], 'createdAt', ARGV[4], 'updatedAt', ARGV[5], 'turns', ARGV[6], 'events', ARGV[7], 'bytes', ARGV[8], 'waiting', ARGV[9], 'stateBytes', ARGV[10])
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'state', ARGV[11]) end
for i = 12, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2])
return 1`)

// ARGV: id, at, input, inputBytes, title ('' none), maxEvents, maxBytes, maxChats ('' the chat exists; else it is made by this turn),
// check ('1': only the checks, nothing written).
// The turn, or -1 no chat (or, to make one, the id taken), -2 events full, -3 bytes full, -4 too many chats.
const startTurn = chatScript(`
if ARGV[8] ~= '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then return -4 end
  if tonumber(ARGV[4]) > tonumber(ARGV[7]) then return -3 end
  if ARGV[9] == '1' then return 0 end
  redis.call('HSET', KEYS[1], 'title', ARGV[5], 'createdAt', ARGV[2], 'updatedAt', ARGV[2], 'turns', 1, 'events', 0, 'bytes', ARGV[4], 'waiting', '[]', 'stateBytes', 0)
  redis.call('RPUSH', KEYS[2], '0:i:' .. ARGV[3])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  return 0
end
local row = redis.call('HMGET', KEYS[1], 'turns', 'events', 'bytes', 'stateBytes', 'purgeAt', 'title')
if not row[1] or row[5] then return -1 end
if tonumber(row[2]) + 1 > tonumber(ARGV[6]) then return -2 end
local bytes = tonumber(row[3]) + tonumber(ARGV[4])
if bytes + tonumber(row[4]) > tonumber(ARGV[7]) then return -3 end
local turn = tonumber(row[1])
if ARGV[9] == '1' then return turn end
redis.call('RPUSH', KEYS[2], turn .. ':i:' .. ARGV[3])
redis.call('HSET', KEYS[1], 'turns', turn + 1, 'bytes', bytes, 'updatedAt', ARGV[2])
if ARGV[5] ~= '' and row[6] == '' then redis.call('HSET', KEYS[1], 'title', ARGV[5]) end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return turn`)

// ARGV: id, turn, at, maxEvents, maxBytes, count, bytes, state ('' none), stateBytes, waiting changes (JSON [[callId, open]]), the batch (a JSON array).
// 1 appended, 0 no such chat or turn, -2 events full, -3 bytes full.
const appendEvents = chatScript(`
local row = redis.call('HMGET', KEYS[1], 'turns', 'events', 'bytes', 'stateBytes', 'purgeAt', 'waiting')
if not row[1] then return 0 end
local turn = tonumber(ARGV[2])
if turn < 0 or turn >= tonumber(row[1]) then return 0 end
local events = tonumber(row[2]) + tonumber(ARGV[6])
if events > tonumber(ARGV[4]) then return -2 end
local stateBytes = tonumber(row[4])
if ARGV[8] ~= '' then stateBytes = tonumber(ARGV[9]) end
local bytes = tonumber(row[3]) + tonumber(ARGV[7])
if bytes + stateBytes > tonumber(ARGV[5]) then return -3 end
redis.call('RPUSH', KEYS[2], ARGV[2] .. ':b:' .. ARGV[11])
local open = {}
for _, id in ipairs(cjson.decode(row[6])) do open[id] = true end
for _, change in ipairs(cjson.decode(ARGV[10])) do
  if change[2] then open[change[1]] = true else open[change[1]] = nil end
end
local waiting = {}
for id in pairs(open) do table.insert(waiting, id) end
redis.call('HSET', KEYS[1], 'events', events, 'bytes', bytes, 'updatedAt', ARGV[3], 'waiting', #waiting > 0 and cjson.encode(waiting) or '[]')
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'state', ARGV[8], 'stateBytes', stateBytes) end
if not row[5] then redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1]) end
return 1`)

// ARGV: id, title, at. 1 renamed, 0 no chat.
const renameChat = chatScript(`
local row = redis.call('HMGET', KEYS[1], 'turns', 'purgeAt')
if not row[1] or row[2] then return 0 end
redis.call('HSET', KEYS[1], 'title', ARGV[2], 'updatedAt', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1`)

// ARGV: id, purgeAt, ttl (ms). 1 deleted, 0 no chat.
const deleteChat = chatScript(`
local row = redis.call('HMGET', KEYS[1], 'turns', 'purgeAt')
if not row[1] or row[2] then return 0 end
redis.call('HSET', KEYS[1], 'purgeAt', ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`)

// ARGV: id, at, maxChats. 1 shown, 0 no chat (or past its undo time), -1 too many chats.
const restoreChat = chatScript(`
local row = redis.call('HMGET', KEYS[1], 'updatedAt', 'purgeAt')
if not row[1] then return 0 end
if not row[2] then return 1 end
if tonumber(row[2]) <= tonumber(ARGV[2]) then return 0 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return -1 end
redis.call('HDEL', KEYS[1], 'purgeAt')
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
redis.call('ZADD', KEYS[3], row[1], ARGV[1])
return 1`)

// The chat's index entry and entries, or nil when there is none shown.
const readChat = chatScript(`
local row = redis.call('HMGET', KEYS[1], 'title', 'createdAt', 'updatedAt', 'waiting', 'state', 'purgeAt')
if not row[1] or row[6] then return false end
return {row[1], row[2], row[3], row[4], row[5] or '', redis.call('LRANGE', KEYS[2], 0, -1)}`)

// KEYS[3] the list; ARGV: chat key prefix, limit, after updatedAt ('' from the top), after id.
// Rows of id, title, createdAt, updatedAt, waiting; in the order of the list (updatedAt, then id, descending).
const listChats = chatScript(`
local limit = tonumber(ARGV[2])
local ids = {}
if ARGV[3] == '' then
  ids = redis.call('ZRANGE', KEYS[3], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit)
else
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], ARGV[3], ARGV[3], 'BYSCORE', 'REV')) do
    if id < ARGV[4] and #ids < limit then table.insert(ids, id) end
  end
  if #ids < limit then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[3], '(' .. ARGV[3], '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit - #ids)) do table.insert(ids, id) end
  end
end
local rows = {}
for _, id in ipairs(ids) do
  local row = redis.call('HMGET', ARGV[1] .. id, 'title', 'createdAt', 'updatedAt', 'waiting')
  if row[1] then table.insert(rows, {id, row[1], row[2], row[3], row[4]}) end
end
return rows`)

// A chat whole, to move it: its index entry (field, value…) and its entries; nil when there is none shown.
const dumpChat = chatScript(`
local row = redis.call('HGETALL', KEYS[1])
if #row == 0 or redis.call('HEXISTS', KEYS[1], 'purgeAt') == 1 then return false end
return {row, redis.call('LRANGE', KEYS[2], 0, -1)}`)

// The moved chat under its new owner. ARGV: maxChats, id, updatedAt, the number of fields n, n field/value pairs, entries…
// 1 put, 0 there already (moved before), -1 too many chats.
const putMovedChat = chatScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[1]) then return -1 end
local fields = tonumber(ARGV[4])
for i = 5, 4 + fields * 2, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
for i = 5 + fields * 2, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 1`)

// The moved chat gone from its old owner. ARGV: id.
const dropMovedChat = chatScript(`
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`)

/**
 * A `ConversationStore` in Redis, shared by every instance on the same Redis and prefix. Every
 * write is one Lua script (atomic in Redis, its checks and its write together); a page of the
 * list is one script over the owner's sorted set and the listed chats' hashes, never their
 * entries. A deleted chat's keys get a TTL past its undo time, so Redis forgets it by itself
 * (`sweep` does nothing); a restore removes the TTL.
 *
 * While Redis is unreachable every call fails at once with `ConversationStoreUnavailableError`
 * (no offline queue; an unanswered command fails after 1 s), and the client reconnects by
 * itself. Fails at start, naming the URL, when Redis cannot be reached then.
 */
export function useRedisConversationStore({ url, prefix = 'elicit:' }: RedisConversationStoreOptions): Operation<ConversationStore> {
  return resource(function* (provide) {
    // The session store logs an outage; this one's calls fail as `ConversationStoreUnavailableError`.
    const redis = createStoreClient({
      url,
      scripts: { createChat, startTurn, appendEvents, renameChat, deleteChat, restoreChat, readChat, listChats, dumpChat, putMovedChat, dropMovedChat },
      store: "The chats' store",
      Unavailable: ConversationStoreUnavailableError,
    })
    const { client, command } = redis
    yield* ensure(() => {
      client.destroy()
    })
    yield* redis.connect()
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })

    const keysOf = (owner: string, id: string) => redisChatKeys(prefix, owner, id)
    const refuseOver = (reply: number, limits: ConversationLimits) => {
      if (reply === -2) throw chatTooLarge('events', limits.maxEvents)
      if (reply === -3) throw chatTooLarge('bytes', limits.maxBytes)
    }

    const store: ConversationStore = {
      kind: 'redis',

      *create(owner, { chat, limits }) {
        const { entries, size } = entriesOf(chat.turns)
        const state = chat.conversationState ? JSON.stringify(chat.conversationState) : ''
        const waiting = JSON.stringify(waitingCalls([], chat.turns.flatMap((turn) => turn.events)))
        const reply = yield* command<number>(() =>
          timed.createChat(keysOf(owner, chat.id), [
            limits.maxChats,
            chat.id,
            chat.title,
            chat.createdAt,
            chat.updatedAt,
            chat.turns.length,
            size.events,
            size.bytes,
            waiting,
            state === '' ? 0 : byteLength(state),
            state,
            ...entries.map((entry) => `${entry.turn}:${ENTRY_LETTERS[entry.kind]}:${entry.text}`),
          ]),
        )
        if (reply === -1) throw tooManyChats(limits.maxChats)
        if (reply !== 1) throw new Error(`A chat with the id ${chat.id} exists already.`)
      },

      *list(owner, { limit, after }) {
        const keys = keysOf(owner, '')
        const rows = yield* command<Array<[string, string, string, string, string]>>(() =>
          timed.listChats(keys, [keys.chat, limit, after ? after.updatedAt : '', after ? after.id : '']),
        )
        return rows.map(([id, title, createdAt, updatedAt, waiting]): ChatSummary => ({
          id,
          title,
          createdAt: Number(createdAt),
          updatedAt: Number(updatedAt),
          waitingCalls: JSON.parse(waiting) as string[],
        }))
      },

      *get(owner, id) {
        const reply = yield* command<[string, string, string, string, string, string[]] | null>(() => timed.readChat(keysOf(owner, id), []))
        if (!reply) return undefined
        const [title, createdAt, updatedAt, waiting, stateText, entries] = reply
        const state = stateText === '' ? undefined : (JSON.parse(stateText) as Message[])
        const decoded = entries.map((entry) => {
          const first = entry.indexOf(':')
          return decodeEntry(Number(entry.slice(0, first)), ENTRY_KINDS[entry[first + 1]!] ?? 'event', entry.slice(first + 3))
        })
        return {
          id,
          title,
          createdAt: Number(createdAt),
          updatedAt: Number(updatedAt),
          waitingCalls: JSON.parse(waiting) as string[],
          turns: assembleTurns(decoded, state),
          ...(state ? { conversationState: state } : {}),
        }
      },

      *summary(owner, id) {
        const [title, createdAt, updatedAt, waiting, purgeAt] = yield* command<Array<string | null>>(() =>
          timed.hmGet(keysOf(owner, id).chat, ['title', 'createdAt', 'updatedAt', 'waiting', 'purgeAt']),
        )
        if (title == null || purgeAt != null) return undefined
        return { id, title, createdAt: Number(createdAt), updatedAt: Number(updatedAt), waitingCalls: JSON.parse(waiting ?? '[]') as string[] }
      },

      *startTurn(owner, id, { input, title, at, limits, create, events, json, check }) {
        const text = JSON.stringify(input)
        const reply = yield* command<number>(() =>
          timed.startTurn(keysOf(owner, id), [id, at, text, byteLength(text), title ?? '', limits.maxEvents, limits.maxBytes, create ? limits.maxChats : '', check ? '1' : '']),
        )
        if (reply === -1) return undefined
        if (reply === -4) throw tooManyChats(limits.maxChats)
        refuseOver(reply, limits)
        // The first batch by the append's own script, right after: two atomic steps here, where the embedded store takes one.
        if (!check && events && events.length > 0) yield* store.appendEvents(owner, id, { turn: reply, events, json, at, limits })
        return reply
      },

      *appendEvents(owner, id, { turn, events, json, at, limits }) {
        const encoded = encodeEvents(events, json)
        const changes = JSON.stringify(waitingChanges(events).map((change) => [change.callId, change.open]))
        const reply = yield* command<number>(() =>
          timed.appendEvents(keysOf(owner, id), [
            id,
            turn,
            at,
            limits.maxEvents,
            limits.maxBytes,
            events.length,
            encoded.bytes,
            encoded.state?.text ?? '',
            encoded.state?.bytes ?? 0,
            changes,
            encoded.text,
          ]),
        )
        refuseOver(reply, limits)
        return reply === 1
      },

      *rename(owner, id, { title, at }) {
        return (yield* command<number>(() => timed.renameChat(keysOf(owner, id), [id, title, at]))) === 1
      },

      *delete(owner, id, { at, purgeAt }) {
        return (yield* command<number>(() => timed.deleteChat(keysOf(owner, id), [id, purgeAt, Math.max(0, purgeAt - at) + EXPIRY_GRACE_MS]))) === 1
      },

      *restore(owner, id, { at, limits }) {
        const reply = yield* command<number>(() => timed.restoreChat(keysOf(owner, id), [id, at, limits.maxChats]))
        if (reply === -1) throw tooManyChats(limits.maxChats)
        return reply === 1
      },

      // An owner's keys share a hash slot, two owners' need not: a chat moves in three steps, each
      // atomic — read it, put it under `to` unless it is there already, drop it from `from` — so
      // that a repeat after an interruption finds it under `to` and only drops the old copy.
      *moveChats(from, to, { limits }) {
        if (from === to) return 0
        const list = keysOf(from, '').list
        const ids = yield* command<string[]>(() => timed.zRange(list, '+inf', '-inf', { BY: 'SCORE', REV: true }))
        let moved = 0
        for (const id of ids) {
          const dump = yield* command<[string[], string[]] | null>(() => timed.dumpChat(keysOf(from, id), []))
          if (!dump) continue
          const [fields, entries] = dump
          const updatedAt = fields[fields.indexOf('updatedAt') + 1] ?? '0'
          const reply = yield* command<number>(() => timed.putMovedChat(keysOf(to, id), [limits.maxChats, id, updatedAt, fields.length / 2, ...fields, ...entries]))
          // The account is full: this chat and the older ones stay with the browser.
          if (reply === -1) break
          yield* command<number>(() => timed.dropMovedChat(keysOf(from, id), [id]))
          if (reply === 1) moved++
        }
        return moved
      },

      // Redis forgets a deleted chat by itself (its keys' TTL): there is nothing to sweep.
      *sweep() {
        return undefined
      },
    }
    yield* provide(store)
  })
}
