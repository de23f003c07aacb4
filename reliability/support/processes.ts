import { afterEach } from 'vitest'
import { startApp, type AppProcess } from '../../e2e/support/app-process'
import { startRedis, type RedisProcess } from '../../e2e/support/redis-process'

/**
 * The real processes a test of the suite starts — servers and a `redis-server` — each ended
 * after its test, whether it passed or not (`afterEach` of the file that calls this), so that a
 * failed test leaves nothing running for the next.
 */
export function processesPerTest() {
  let apps: AppProcess[] = []
  let redis: RedisProcess | undefined
  afterEach(async () => {
    for (const app of apps) await app.kill()
    apps = []
    await redis?.dispose()
    redis = undefined
  })
  return {
    /** A production server (`startApp`), killed after the test. */
    async app(options: Parameters<typeof startApp>[0]): Promise<AppProcess> {
      const app = await startApp(options)
      apps.push(app)
      return app
    },
    /** A `redis-server` of the test's own, disposed of after it. */
    async redis(): Promise<RedisProcess> {
      redis = await startRedis()
      return redis
    },
  }
}
