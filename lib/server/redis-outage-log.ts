import type { RedisOutage } from '../sessions/stores/redis-store'
import { serverLogger, type Logger } from '../telemetry'

/**
 * Redis out of reach, and back, on the server's log: `redis_unreachable` once when the chat's
 * session store loses its connection (with the client's description of why, `detail`: the
 * network's words or Redis's, never a command's, so on the line always), `redis_reachable` once
 * when it is back. Both at `warn`, so that an operator who sees the one also sees the other. One
 * store is told (the chat's sessions), for every store on the same Redis.
 */
export function logRedisOutage(outage: RedisOutage, logger: Logger = serverLogger()): void {
  if (outage.reachable) logger.warn('Redis is reachable again', { code: 'redis_reachable', redis: outage.url })
  else logger.warn('Redis is unreachable; reconnecting', { code: 'redis_unreachable', redis: outage.url, detail: outage.cause })
}
