import { createRateLimiter, type RateDecision } from './rate-limiter'

/**
 * What a request asks of the server: `continue` — work this client already has in progress
 * (an answer to a question the server waits on, a Stop, an MCP continuation), recognised by
 * the caller from ids the server signed; `new` — anything else.
 */
export type Work = 'new' | 'continue'

export interface AdmissionOptions {
  /** Requests one address may make at once, after a quiet time (its own bucket's size). */
  burst: number
  /** Requests per second one address may make, sustained (its own bucket's refill). */
  perSecond: number
  /** Requests the whole server takes at once (the server's bucket). */
  globalBurst: number
  /** Requests per second the whole server takes, sustained. */
  globalPerSecond: number
  /**
   * New requests an address may have made recently (a count that halves every 10 s, refused
   * ones included) and still count as light (default 4): a light client is served from the
   * server's reserve and gets a held slot when the server is spent.
   */
  lightAttempts?: number
  /** The same for a group of addresses (an IPv4 /24, an IPv6 /48; default 16). */
  groupLightAttempts?: number
  /** Addresses (and groups) remembered at most, least recently seen forgotten first (default 100,000). */
  maxAddresses?: number
  now?: () => number
}

/** The server's admission: each request is charged to its address, then to the server by what it is. */
export interface Admission {
  /**
   * Before the body is read, every request, work in progress included: the address's own
   * bucket (so answers cannot be used to flood). A refusal is `scope: 'address'`.
   */
  enter(address: string): RateDecision
  /** Once the request's kind is known: the server's budget. A refusal is `scope: 'server'`. */
  admit(address: string, work: Work): RateDecision
  /** `enter` then `admit` as new work, for requests that never continue anything. */
  take(address: string): RateDecision
  /**
   * Before anything is charged or read: whether new work from `address` would be refused now
   * for the server's load — the server is down to its reserve, and the address (or its group)
   * is not light, and holds no slot that has fallen due. Changes nothing.
   */
  pressing(address: string): boolean
  /** Addresses remembered now (for tests and the bench). */
  readonly size: number
}

const HALF_LIFE_MS = 10_000
/** A held slot is honoured this long after it falls due (a client returns after whole seconds, plus its round trip). */
const SLOT_GRACE_MS = 5_000

interface Recent {
  /** New requests made lately, decayed by half every `HALF_LIFE_MS`. */
  attempts: number
  at: number
  /** An address's: the slot held for it, a token set aside for it from `slot.at` on. */
  slot?: Held
  /** A group's: the slots its addresses hold, oldest first. */
  held?: Held[]
}

interface Held {
  address: string
  group: string
  at: number
  claimed: boolean
}

/** Slots the addresses of a group over its fair share may hold at once (a light group's may hold any number). */
const SLOTS_PER_HEAVY_GROUP = 4

/**
 * Admission under load: work in progress first, a fair share of the rest, and a `Retry-After`
 * that a client can trust (docs/deploying.md, "Under load: what is refused first").
 *
 * Each address has its own token bucket (`burst`, `perSecond`), charged before anything else by
 * every request. The server has one bucket (`globalBurst`, `globalPerSecond`), taken from in
 * this order:
 *
 * 1. `continue` is always admitted: it takes a token even when none is left, leaving the server
 *    in debt (at most `globalBurst` deep), so new work waits for it and never the other way round.
 * 2. An address whose held slot has fallen due is admitted: its token was set aside when the slot
 *    was given.
 * 3. While more than a quarter of the bucket is left (the reserve), new work is first come,
 *    first served.
 * 4. The reserve serves light clients only: an address that made at most `lightAttempts` new
 *    requests lately (refusals count, so a client hammering stays heavy), in a group that made at
 *    most `groupLightAttempts`. A client that has sent little recently is served on its first try.
 * 5. With nothing left, a light client is given a slot: a token is set aside for it now, and the
 *    refusal's `Retry-After` is when the bucket will have refilled to pay for it. A retry in
 *    `[slotAt, slotAt + 5 s]` is admitted whatever else is going on: Retry-After tells the truth,
 *    and the client gets in on its second try. At most `globalBurst` tokens are ever set aside;
 *    one an address never came back for is returned to the bucket when its grace ends. An
 *    address that has sent little in a group that has not (a new client behind the same /24 as a
 *    flood) is given a slot too, as long as its group holds fewer than `SLOTS_PER_HEAVY_GROUP`.
 * 6. Anyone else is refused, with `Retry-After` the time until it would be light again, its
 *    group would have room for a slot, and the bucket has a token.
 *
 * Invariants: a `continue` is never refused for the server's load; an address holds at most one
 * slot, so what is left once the server is spent is shared by addresses, not by requests;
 * memory is bounded by `maxAddresses` entries per map and `globalBurst` held slots; nothing runs
 * between requests (buckets, counts and slots are brought up to date when next touched).
 */
export function createAdmission({
  burst,
  perSecond,
  globalBurst,
  globalPerSecond,
  lightAttempts = 4,
  groupLightAttempts = 16,
  maxAddresses = 100_000,
  now = Date.now,
}: AdmissionOptions): Admission {
  for (const [name, value] of Object.entries({ globalBurst, globalPerSecond, lightAttempts, groupLightAttempts })) {
    if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`createAdmission: ${name} must be a positive number, not ${value}.`)
  }
  const own = createRateLimiter({ burst, perSecond, maxAddresses, now })
  const addresses = new Map<string, Recent>()
  const groups = new Map<string, Recent>()
  const server = { tokens: globalBurst, at: now() }
  const reserve = globalBurst / 4
  const maxDebt = globalBurst
  /** Slots given, in the order they fall due (which is the order they were given). */
  const held: Held[] = []
  let heldFrom = 0

  const decayed = (recent: Recent | undefined, at: number) => (recent ? recent.attempts * 2 ** (-(at - recent.at) / HALF_LIFE_MS) : 0)
  /**
   * Where an address stands with `attempts` (its group `group`, counted the same way): `light`
   * — it and its group have sent little — may take the reserve; `slotRoom` — it has sent little,
   * and its group either has too or holds fewer than `SLOTS_PER_HEAVY_GROUP` slots — may be
   * held a slot. So a new client behind the same /24 as a flood still gets a slot, and a flood
   * from many addresses of one /24 cannot hold more than a few.
   */
  const standing = (attempts: number, group: Recent | undefined, groupAttempts = group?.attempts ?? 0) => {
    const addressLight = attempts <= lightAttempts
    const groupLight = groupAttempts <= groupLightAttempts
    return { light: addressLight && groupLight, slotRoom: addressLight && (groupLight || (group?.held?.length ?? 0) < SLOTS_PER_HEAVY_GROUP) }
  }

  const remember = (map: Map<string, Recent>, key: string, at: number): Recent => {
    let recent = map.get(key)
    if (recent) map.delete(key)
    else {
      recent = { attempts: 0, at }
      if (map.size >= maxAddresses) map.delete(map.keys().next().value!)
    }
    map.set(key, recent)
    recent.attempts = decayed(recent, at)
    recent.at = at
    return recent
  }

  /** A slot is over (claimed, or its grace ended): its group no longer counts it. */
  const release = (slot: Held) => {
    const group = groups.get(slot.group)
    const index = group?.held?.indexOf(slot) ?? -1
    if (index >= 0) group!.held!.splice(index, 1)
  }

  const refill = (at: number) => {
    server.tokens = Math.min(globalBurst, server.tokens + ((at - server.at) / 1000) * globalPerSecond)
    server.at = at
    // Slots whose grace has ended: a token set aside for a client that never came back returns.
    while (heldFrom < held.length && held[heldFrom]!.at + SLOT_GRACE_MS < at) {
      const slot = held[heldFrom++]!
      if (slot.claimed) continue
      release(slot)
      const recent = addresses.get(slot.address)
      if (recent?.slot === slot) recent.slot = undefined
      server.tokens = Math.min(globalBurst, server.tokens + 1)
    }
    if (heldFrom > 1024 && heldFrom * 2 > held.length) held.splice(0, heldFrom), (heldFrom = 0)
  }

  const refused = (retryAfterSeconds: number): RateDecision => ({ allowed: false, scope: 'server', retryAfterSeconds: Math.max(0, retryAfterSeconds) })

  const admit = (address: string, work: Work): RateDecision => {
    const at = now()
    refill(at)
    if (work === 'continue') {
      server.tokens = Math.max(-maxDebt, server.tokens - 1)
      return { allowed: true }
    }
    const recent = remember(addresses, address, at)
    const group = remember(groups, groupOf(address), at)
    recent.attempts += 1
    group.attempts += 1

    const { slot } = recent
    if (slot) {
      if (slot.at > at) return refused((slot.at - at) / 1000)
      slot.claimed = true
      recent.slot = undefined
      release(slot)
      return { allowed: true }
    }
    if (server.tokens - 1 >= reserve) {
      server.tokens -= 1
      return { allowed: true }
    }
    const { light, slotRoom } = standing(recent.attempts, group)
    if (light && server.tokens >= 1) {
      server.tokens -= 1
      return { allowed: true }
    }
    if (slotRoom && server.tokens - 1 >= -maxDebt) {
      server.tokens -= 1
      recent.slot = { address, group: groupOf(address), at: at + Math.max(0, -server.tokens / globalPerSecond) * 1000, claimed: false }
      held.push(recent.slot)
      ;(group.held ??= []).push(recent.slot)
      return refused((recent.slot.at - at) / 1000)
    }
    // Heavy, or no slot to be had now: when this client would be light again, its group will
    // have room (its oldest slot is claimed or given up by then), and a token is there.
    const untilLight = Math.max(HALF_LIFE_MS * Math.log2(recent.attempts / Math.max(lightAttempts - 1, 0.5)), 0)
    const oldest = group.held?.[0]
    const untilGroupRoom = slotRoom || !oldest ? 0 : Math.max(oldest.at + SLOT_GRACE_MS - at, 0)
    const untilToken = ((1 - server.tokens) / globalPerSecond) * 1000
    return refused(Math.max(untilLight, untilGroupRoom, untilToken) / 1000)
  }

  return {
    enter: (address) => own.take(address),
    admit,
    take(address) {
      const entered = own.take(address)
      return entered.allowed ? admit(address, 'new') : entered
    },
    pressing(address) {
      const at = now()
      refill(at)
      if (server.tokens - 1 >= reserve) return false
      const recent = addresses.get(address)
      if (recent?.slot && recent.slot.at <= at) return false
      // As `admit` would count this request: one more attempt of the address and of its group.
      const group = groups.get(groupOf(address))
      const { slotRoom } = standing(decayed(recent, at) + 1, group, decayed(group, at) + 1)
      return !(slotRoom && server.tokens - 1 >= -maxDebt)
    },
    get size() {
      return Math.max(own.size, addresses.size)
    },
  }
}

/** The group an address belongs to for fairness: an IPv4 /24, an IPv6 /48, anything else itself. */
export function groupOf(address: string): string {
  const v4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(address)
  if (v4) return `${v4[1]}.0/24`
  if (address.endsWith('::/64')) return `${address.split(':').slice(0, 3).join(':')}::/48`
  return address
}
