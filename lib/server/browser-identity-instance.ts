import { createClientIdentity, type ClientIdentityResolver } from '../http'
import { readServerConfig } from './config'
import { getDeviceStore } from './device-store-instance'

const globalForBrowserIdentity = globalThis as typeof globalThis & { browserIdentity?: Promise<ClientIdentityResolver> }

/**
 * The browser's identity (lib/http/client-identity.ts): the person without sign-in, a guest with
 * `AUTH_GUESTS=on`, and whose work moves to the account when the browser signs in. One for the
 * process, with the server's secret, proxy trust and the device store's revoked browsers (a
 * browser joined to an identity with a code is checked against it; docs/devices.md).
 */
export function getBrowserIdentity(): Promise<ClientIdentityResolver> {
  globalForBrowserIdentity.browserIdentity ??= open()
  return globalForBrowserIdentity.browserIdentity
}

async function open(): Promise<ClientIdentityResolver> {
  const config = readServerConfig()
  const devices = await getDeviceStore()
  return createClientIdentity({ secret: config.sessionSecret, trustProxy: config.limits.trustProxy, revoked: devices.store.revoked })
}
