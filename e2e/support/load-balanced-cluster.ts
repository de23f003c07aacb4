import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import type { TestInfo } from '@playwright/test'
import { startApp, type AppProcess } from './app-process'
import { startNginx, describeRequest, type NginxProcess } from './nginx-process'
import { startRedis, type RedisProcess } from './redis-process'

/**
 * Production instances on one Redis behind a real nginx with plain round-robin, started as
 * docs/deploying.md says (the same `REDIS_URL` and `SESSION_SECRET` on each, `TRUST_PROXY=1`,
 * `KEEP_ALIVE_TIMEOUT` above nginx's upstream keep-alive, `MCP_ALLOWED_HOSTS` the block's
 * `server_name`, nginx from the document's block).
 * Clients talk to `url`, nginx's; an instance is restarted on its own port and `DATA_DIR`, as a
 * deploy does, so nginx's configuration stays as it is.
 */
export interface Cluster {
  /** nginx: `http://127.0.0.1:<port>` */
  url: string
  nginx: NginxProcess
  redis: RedisProcess
  /** The instances as they are now (a restarted one is a new process in the same place). */
  instances(): AppProcess[]
  /** Which instance an upstream address of nginx's log is: 0, 1, … */
  instanceAt(upstream: string | undefined): number | undefined
  /** `signal` (default SIGKILL, `kill -9`) to instance `index`; resolves once it has exited. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>
  /** A graceful stop of instance `index` (SIGTERM); rejects if it has not exited within 10 s (then it is killed). */
  stopInstance(index: number): Promise<void>
  /** Starts instance `index` again on its port and DATA_DIR; resolves once it answers `/api/health`. */
  start(index: number): Promise<void>
  /** Attaches every process's output to the test's report (call it when the test failed). */
  attachOutputs(testInfo: TestInfo): Promise<void>
  /** Stops nginx, every instance and Redis. */
  stop(): Promise<void>
}

export async function startCluster({ instances: count = 2 }: { instances?: number } = {}): Promise<Cluster> {
  const redis = await startRedis()
  const env = {
    REDIS_URL: redis.url,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    TRUST_PROXY: '1',
    KEEP_ALIVE_TIMEOUT: '65000',
    // The block's server_name: the name in the Host nginx passes on.
    MCP_ALLOWED_HOSTS: 'chat.example.com',
  }
  let instances: AppProcess[] = []
  let nginx: NginxProcess | undefined
  /** Every process started, restarted ones included, for the report. */
  const everyInstance: AppProcess[] = []
  try {
    instances = await Promise.all(Array.from({ length: count }, () => startApp({ env })))
    everyInstance.push(...instances)
    nginx = await startNginx({ upstreamPorts: instances.map((instance) => instance.port) })
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.kill()))
    await redis.dispose()
    throw error
  }
  const proxy = nginx
  const ports = instances.map((instance) => instance.port)

  return {
    url: proxy.url,
    nginx: proxy,
    redis,
    instances: () => [...instances],
    instanceAt(upstream) {
      const index = ports.findIndex((port) => upstream === `127.0.0.1:${port}`)
      return index < 0 ? undefined : index
    },
    kill: (index, signal = 'SIGKILL') => instances[index]!.kill(signal),
    stopInstance: (index) => instances[index]!.stop(),
    async start(index) {
      const { port, dataDir } = instances[index]!
      const restarted = await startApp({ env, port, dataDir })
      instances[index] = restarted
      everyInstance.push(restarted)
    },
    async attachOutputs(testInfo) {
      const attach = async (name: string, text: string) => {
        const file = testInfo.outputPath(`${name.replace(/[^\w.-]+/g, '-')}.log`)
        writeFileSync(file, text)
        await testInfo.attach(name, { path: file, contentType: 'text/plain' })
      }
      for (const [index, instance] of everyInstance.entries()) {
        await attach(`instance ${ports.indexOf(instance.port)} (pid ${instance.pid}, port ${instance.port}), process ${index + 1}`, instance.output())
      }
      await attach('nginx error log', proxy.output())
      await attach('nginx access log', proxy.requests().map(describeRequest).join('\n'))
    },
    async stop() {
      await proxy.stop()
      await Promise.all(instances.map((instance) => instance.kill()))
      await redis.dispose()
    },
  }
}
