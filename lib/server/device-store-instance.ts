import type { Operation } from 'effection'
import { createMemoryDeviceStore, useEmbeddedDeviceStore, useRedisDeviceStore, type DeviceStore } from '../devices'
import { readServerConfig } from './config'
import { useChosenStore } from './chosen-store'
import { openForProcess } from './open-for-process'

/** The app's device store and how to run its operations. */
export interface DeviceStoreInstance {
  store: DeviceStore
  /** Runs an operation of `store` in the scope it lives in. */
  run<T>(operation: () => Operation<T>): Promise<T>
}

const globalForDevices = globalThis as typeof globalThis & { deviceStore?: Promise<DeviceStoreInstance> }

/**
 * The app's one device store, where the sessions are: Redis with `REDIS_URL`, else
 * `DATA_DIR/devices.db` (`SESSION_STORE=memory`: in memory). Opened before the chat app's
 * identity resolver (chat-server-instance.ts), which asks it whether a joined browser was
 * revoked; kept on globalThis, like the chat app, so that dev-mode reloads do not open it twice.
 */
export function getDeviceStore(): Promise<DeviceStoreInstance> {
  globalForDevices.deviceStore ??= open()
  return globalForDevices.deviceStore
}

async function open(): Promise<DeviceStoreInstance> {
  const config = readServerConfig()
  const useStore = (): Operation<DeviceStore> =>
    useChosenStore(config, { redis: (url) => useRedisDeviceStore({ url }), memory: createMemoryDeviceStore, embedded: (directory) => useEmbeddedDeviceStore({ directory }) })
  const { value: store, run } = await openForProcess(useStore)
  return { store, run }
}
