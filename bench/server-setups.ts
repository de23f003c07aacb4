import { randomBytes } from 'node:crypto'
import { startRedisServer } from '../lib/sessions/testing/redis-server'
import { makeTempDir } from './temp-dir'

export type SetupName = 'memory' | 'embedded' | 'redis' | 'cold'

/** One way of running the server: the store it keeps sessions in, and how long tools stay hot. */
export interface ServerSetup {
  name: SetupName
  label: string
  /** The most a resume's p50 may be, as a multiple of the trivial route's on the same server. */
  target: number
  /** What the server needs (a fresh DATA_DIR, a redis-server) and the environment that names it. */
  prepare(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>
}

/** Variables the bench sets itself: none comes from the shell that ran it. */
const RESET = { REDIS_URL: '', SESSION_STORE: '', SESSION_SECRET: '', PLUGIN_SESSION_HOT_MS: '', DATA_DIR: '' }

/** A fresh DATA_DIR in the temp directory (every setup has one: the server keeps its generated secret there). */
function withDataDir(env: Record<string, string>, cleanup: () => Promise<void> = async () => {}) {
  const dataDir = makeTempDir('data')
  return {
    env: { ...RESET, DATA_DIR: dataDir.path, ...env },
    async cleanup() {
      await cleanup()
      dataDir.remove()
    },
  }
}

export const serverSetups: ServerSetup[] = [
  {
    name: 'memory',
    label: 'memory store (SESSION_STORE=memory)',
    target: 1.5,
    prepare: async () => withDataDir({ SESSION_STORE: 'memory' }),
  },
  {
    name: 'embedded',
    label: 'embedded store (the default: SQLite in a fresh DATA_DIR)',
    target: 1.5,
    prepare: async () => withDataDir({}),
  },
  {
    name: 'redis',
    label: 'Redis store (REDIS_URL: a redis-server the bench started)',
    target: 1.5,
    async prepare() {
      const redis = await startRedisServer()
      return withDataDir({ REDIS_URL: redis.url, SESSION_SECRET: randomBytes(32).toString('base64url') }, () => redis.stop())
    },
  },
  {
    name: 'cold',
    label: 'cold sessions: embedded store, PLUGIN_SESSION_HOT_MS=0, so every answer replays the journal',
    target: 2,
    prepare: async () => withDataDir({ PLUGIN_SESSION_HOT_MS: '0' }),
  },
]
