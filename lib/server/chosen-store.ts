import type { Operation } from 'effection'
import type { ServerConfig } from './config'

/**
 * Opens a store of the kind the configuration chose (`config.store`, read once by
 * `readServerConfig`): each instance says how it opens each kind, and none reads the
 * environment for it.
 *
 * @example
 * useChosenStore(config, { redis: (url) => useRedisDeviceStore({ url }), memory: createMemoryDeviceStore, embedded: (directory) => useEmbeddedDeviceStore({ directory }) })
 */
export function* useChosenStore<T>(
  config: Pick<ServerConfig, 'store' | 'redisUrl' | 'dataDir'>,
  open: { redis(url: string): Operation<T>; memory(): T; embedded(directory: string): Operation<T> },
): Operation<T> {
  if (config.store === 'redis' && config.redisUrl) return yield* open.redis(config.redisUrl)
  if (config.store === 'memory') return open.memory()
  return yield* open.embedded(config.dataDir)
}
