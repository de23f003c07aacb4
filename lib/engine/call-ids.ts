import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

/** Hands out the ids of the tool calls a model returns, unique on this server, each bound to its client. */
export interface CallIdIssuer {
  /** A new id for the call the model named `modelId` (kept, shortened, as a readable prefix), made for `clientId`. */
  issue(modelId: string, clientId: string): string
  /**
   * Whether `callId` was issued to `clientId` by a server with this secret: one HMAC, no store.
   * This is how a request is recognised as continuing work in progress (an answer, a Stop)
   * before anything else is done with it.
   */
  issuedTo(callId: string, clientId: string): boolean
}

/** The part of a model's id kept at the front of ours. */
const MAX_PREFIX = 64
/** The tag's length: 20 hex digits, 80 bits of HMAC-SHA256. */
const TAG_LENGTH = 20

/**
 * A tool call's id is its session's id, so two calls must never share one: model servers that
 * number their calls (`call_0` in every response) would otherwise make two browsers, or two
 * chats in one browser, collide on a session.
 *
 * Invariants: every id issued is `<model id>_<nonce><counter>_<tag>`, where the nonce is 12
 * random base64url characters (72 bits) made once per issuer and the counter counts up from 0
 * in base 36: ids never repeat within one issuer, and issuers (servers, processes, restarts)
 * differ by their nonce. The tag is an HMAC of the rest and the client's id under a key
 * derived from `secret` (`SESSION_SECRET`), so every instance recognises the ids any instance
 * issued, and an id is recognised only with the identity it was issued to. The tag is not what
 * guards a session (the store checks its owner on every answer); it only lets the server put a
 * client's work in progress first under load without reading the store.
 */
export function createCallIdIssuer({
  secret = randomBytes(32).toString('base64url'),
  nonce = randomBytes(9).toString('base64url'),
}: { secret?: string; nonce?: string } = {}): CallIdIssuer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'elicit-chat', 'tool call ids', 32))
  const tagOf = (id: string, clientId: string) => createHmac('sha256', key).update(id).update('\0').update(clientId).digest('hex').slice(0, TAG_LENGTH)
  let counter = 0
  return {
    issue(modelId, clientId) {
      const prefix = modelId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_PREFIX) || 'call'
      const id = `${prefix}_${nonce}${(counter++).toString(36)}`
      return `${id}_${tagOf(id, clientId)}`
    },
    issuedTo(callId, clientId) {
      if (callId.length <= TAG_LENGTH + 1 || callId[callId.length - TAG_LENGTH - 1] !== '_') return false
      // A slash command's id is an issued id behind `direct.` (run-turn.ts).
      const id = callId.slice(callId.startsWith('direct.') ? 'direct.'.length : 0, -TAG_LENGTH - 1)
      const given = Buffer.from(callId.slice(-TAG_LENGTH))
      return timingSafeEqual(given, Buffer.from(tagOf(id, clientId)))
    },
  }
}
