import { EXPIRED_CODE_KEPT_MS, type DeviceBrowser, type DeviceStore, type StoredCode } from '../device-store'

/**
 * A `DeviceStore` in this process's memory (`SESSION_STORE=memory`, tests): lost on restart and
 * seen by this process only. `revoked` is a positive check: a joined browser is revoked when it
 * is not among its identity's browsers.
 */
export function createMemoryDeviceStore(): DeviceStore {
  const codes = new Map<string, StoredCode>()
  const browsers = new Map<string, Map<string, DeviceBrowser>>()

  return {
    kind: 'memory',
    *addCode(code, { now, maxLive }) {
      for (const [hash, kept] of codes) if (kept.expiresAt + EXPIRED_CODE_KEPT_MS <= now) codes.delete(hash)
      const live = [...codes.values()].filter((kept) => kept.identity === code.identity && kept.expiresAt > now).length
      if (live >= maxLive) return false
      codes.set(code.hash, code)
      return true
    },
    *takeCode(hash, now) {
      const code = codes.get(hash)
      if (!code) return undefined
      codes.delete(hash)
      if (code.expiresAt + EXPIRED_CODE_KEPT_MS <= now) return undefined
      return { identity: code.identity, expired: code.expiresAt <= now }
    },
    *addBrowser(identity, browser, { maxBrowsers }) {
      const own = browsers.get(identity) ?? new Map<string, DeviceBrowser>()
      const existing = own.get(browser.id)
      if (!existing && own.size >= maxBrowsers) return false
      own.set(browser.id, existing ? { ...existing, name: browser.name } : browser)
      browsers.set(identity, own)
      return true
    },
    *browsers(identity) {
      return [...(browsers.get(identity)?.values() ?? [])].sort((a, b) => a.joinedAt - b.joinedAt)
    },
    *revoke(identity, browserId) {
      return browsers.get(identity)?.delete(browserId) ?? false
    },
    revoked(identity, browserId) {
      return !browsers.get(identity)?.has(browserId)
    },
  }
}
