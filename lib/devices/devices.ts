import type { Operation } from 'effection'
import { browserName } from './browser-name'
import { hashDeviceCode, newDeviceCode, normalizeDeviceCode } from './device-code'
import { FIRST_BROWSER, type DeviceStore } from './device-store'
import { DeviceError } from './errors'
import { CODE_TTL_MS, DEFAULT_DEVICE_LIMITS, type DeviceLimits } from './limits'

/** Who asks: the identity, which of its browsers (absent: its first), and what that browser says it is. */
export interface AskingBrowser {
  clientId: string
  browserId?: string
  userAgent: string | null
}

/** A browser of the identity as the API lists it. */
export interface ListedBrowser {
  id: string
  name: string
  joinedAt: number
  /** The browser asking. */
  current: boolean
  /** Whether `DELETE /api/devices/:id` would revoke it (not the asking browser, not the first). */
  revocable: boolean
}

/** "Continue on another device": codes, joining with one, and the identity's browsers. */
export interface Devices {
  /** A code for another browser to join the asker's identity with: `ABCD-EFGH`, usable once, for 10 minutes. */
  createCode(asking: AskingBrowser): Operation<{ code: string; expiresAt: number }>
  /** Takes the code and adds the asker as a new browser of the code's identity: what its cookie must name. */
  join(typed: string, asking: AskingBrowser): Operation<{ clientId: string; browserId: string }>
  list(asking: AskingBrowser): Operation<ListedBrowser[]>
  /** Revokes a browser of the asker's identity: its cookie names the identity no more, on every instance. */
  revoke(asking: AskingBrowser, browserId: string): Operation<void>
}

export interface DevicesOptions {
  store: DeviceStore
  /** The server's secret (`SESSION_SECRET`): what codes are hashed with. */
  secret: string
  /** A fresh joined browser's id (the identity cookie's, `ClientIdentityResolver.newBrowserId`). */
  newBrowserId: () => string
  limits?: DeviceLimits
  now?: () => number
}

const invalidCode = () =>
  new DeviceError('invalid_code', 'That code is not right, or it was used already. Check it, or make a new one on your other browser.')

/**
 * The devices of identities. Invariants:
 * - a code is stored only as its keyed hash, is taken once (the store's atomic take), and joins
 *   only within `CODE_TTL_MS` of being made; a wrong, used and unknown code are refused alike;
 * - a browser is added to an identity before any cookie names it (the join's Set-Cookie comes
 *   after `join` returns), and is refused for good once revoked;
 * - the identity's first browser is listed (from the first code it makes) but never revocable,
 *   and no browser revokes itself — it would lose its own identity mid-sentence; the list shows
 *   which is which (`current`, `revocable`).
 */
export function createDevices({ store, secret, newBrowserId, limits = DEFAULT_DEVICE_LIMITS, now = Date.now }: DevicesOptions): Devices {
  return {
    *createCode(asking) {
      const at = now()
      // The first browser is listed from its first code (a joined one was listed when it joined;
      // adding it here could bring back one revoked at this very moment).
      if (asking.browserId === undefined) {
        const listed = yield* store.addBrowser(asking.clientId, { id: FIRST_BROWSER, name: browserName(asking.userAgent), joinedAt: at }, limits)
        if (!listed) throw tooManyBrowsers(limits.maxBrowsers)
      }
      const code = newDeviceCode()
      const expiresAt = at + CODE_TTL_MS
      const kept = yield* store.addCode(
        { hash: hashDeviceCode(secret, normalizeDeviceCode(code)!), identity: asking.clientId, expiresAt },
        { now: at, maxLive: limits.maxLiveCodes },
      )
      if (!kept) {
        throw new DeviceError('too_many_codes', `You have ${limits.maxLiveCodes} codes waiting to be used. Use one, or wait until they expire (10 minutes).`)
      }
      return { code, expiresAt }
    },

    *join(typed, asking) {
      const normalized = normalizeDeviceCode(typed)
      if (!normalized) throw invalidCode()
      const at = now()
      const taken = yield* store.takeCode(hashDeviceCode(secret, normalized), at)
      if (!taken) throw invalidCode()
      if (taken.expired) throw new DeviceError('code_expired', 'That code has expired: a code works for 10 minutes. Make a new one on your other browser.')
      if (taken.identity === asking.clientId) throw new DeviceError('already_joined', 'This browser already continues that conversation list: there is nothing to join.')
      const browserId = newBrowserId()
      const added = yield* store.addBrowser(taken.identity, { id: browserId, name: browserName(asking.userAgent), joinedAt: at }, limits)
      if (!added) throw tooManyBrowsers(limits.maxBrowsers)
      return { clientId: taken.identity, browserId }
    },

    *list(asking) {
      const current = asking.browserId ?? FIRST_BROWSER
      return (yield* store.browsers(asking.clientId)).map((browser) => ({
        ...browser,
        current: browser.id === current,
        revocable: browser.id !== current && browser.id !== FIRST_BROWSER,
      }))
    },

    *revoke(asking, browserId) {
      if (browserId === (asking.browserId ?? FIRST_BROWSER)) {
        throw new DeviceError('not_revocable', 'This is the browser you are using: revoke it from another of your browsers.')
      }
      if (browserId === FIRST_BROWSER) {
        throw new DeviceError('not_revocable', 'The browser these chats were started in cannot be revoked; only browsers that joined with a code can.')
      }
      if (!(yield* store.revoke(asking.clientId, browserId))) throw new DeviceError('browser_not_found', 'There is no such browser (it may have been revoked already).')
    },
  }
}

function tooManyBrowsers(limit: number): DeviceError {
  return new DeviceError('too_many_browsers', `${limit} browsers continue these chats already, as many as may. Revoke one to add another.`)
}
