import { createDevices, createJoinLimiter, DEFAULT_DEVICE_LIMITS, type DevicesApp } from '../devices'
import { getChatApp } from './chat-server-instance'
import { readServerConfig } from './config'
import { getDeviceStore } from './device-store-instance'
import { getSignIn } from './sign-in-instance'

const globalForDevices = globalThis as typeof globalThis & { devicesApp?: Promise<DevicesApp> }

/**
 * What the devices API needs (app/api/devices/**): the devices on the app's device store, the
 * chat's identity resolver (whose `revoked` check that store answers) and admission, and the join
 * limiter; with sign-in configured, only the answer `sign_in_there`. Kept on globalThis, like the chat app.
 */
export function getDevicesApp(): Promise<DevicesApp> {
  globalForDevices.devicesApp ??= start()
  return globalForDevices.devicesApp
}

async function start(): Promise<DevicesApp> {
  const config = readServerConfig()
  const [{ identity, admission }, { store, run }, signIn] = await Promise.all([getChatApp(), getDeviceStore(), getSignIn()])
  const devices = createDevices({ store, secret: config.sessionSecret, newBrowserId: identity.newBrowserId, limits: DEFAULT_DEVICE_LIMITS })
  // With sign-in, "Continue on another device" is "sign in there": the devices API says so (docs/sign-in.md).
  return { devices, identity, admission, joins: createJoinLimiter(DEFAULT_DEVICE_LIMITS), run, signInThere: signIn !== undefined }
}
