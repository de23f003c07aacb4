/**
 * "Continue on another device" (docs/devices.md): a short one-time code joins another browser to
 * the same browser identity; the identity's browsers are listed and revoked. A layer above
 * `lib/http` (the identity cookie, whose `revoked` check the store answers, and the edge's
 * refusals) and nothing else; the app's instance is `lib/server/devices-instance.ts`.
 */
export { createDevices } from './devices'
export type { AskingBrowser, Devices, DevicesOptions, ListedBrowser } from './devices'
export { handleDevicesRequest } from './handle-devices-request'
export type { DevicesApp, DevicesEndpoint } from './handle-devices-request'
export { createJoinLimiter } from './join-limiter'
export type { JoinLimiter } from './join-limiter'
export { FIRST_BROWSER, DeviceStoreUnavailableError, isDeviceStoreUnavailable } from './device-store'
export type { DeviceBrowser, DeviceStore, StoredCode, TakenCode } from './device-store'
export { DeviceError, isDeviceError } from './errors'
export type { DeviceErrorCode } from './errors'
export { CODE_TTL_MS, DEFAULT_DEVICE_LIMITS } from './limits'
export type { DeviceLimits } from './limits'
export { createMemoryDeviceStore } from './stores/memory-store'
export { useEmbeddedDeviceStore, DEVICES_DATABASE_FILE } from './stores/embedded-store'
export { useRedisDeviceStore } from './stores/redis-store'
