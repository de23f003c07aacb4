import { randomBytes } from 'node:crypto'

/** Hands out the ids of the tool calls a model returns, unique on this server. */
export interface CallIdIssuer {
  /** A new id for the call the model named `modelId` (kept, shortened, as a readable prefix). */
  issue(modelId: string): string
}

/** The part of a model's id kept at the front of ours. */
const MAX_PREFIX = 64

/**
 * A tool call's id is its session's id, so two calls must never share one: model servers that
 * number their calls (`call_0` in every response) would otherwise make two browsers, or two
 * chats in one browser, collide on a session.
 *
 * Invariant: every id issued is `<model id>_<nonce><counter>`, where the nonce is 12 random
 * base64url characters (72 bits) made once per issuer and the counter counts up from 0 in
 * base 36: ids never repeat within one issuer, and issuers (servers, processes, restarts)
 * differ by their nonce.
 */
export function createCallIdIssuer({ nonce = randomBytes(9).toString('base64url') }: { nonce?: string } = {}): CallIdIssuer {
  let counter = 0
  return {
    issue(modelId) {
      const prefix = modelId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_PREFIX) || 'call'
      return `${prefix}_${nonce}${(counter++).toString(36)}`
    },
  }
}
