import { join } from 'node:path'
import type { Operation } from 'effection'
import { createChatServer } from '../lib/engine/chat-server'
import { createOfflineModel } from '../lib/models'
import { createMemorySessionStore, type SessionStore } from '../lib/sessions'
import { useEmbeddedSessionStore } from '../lib/sessions/stores/embedded-store'
import { useRedisSessionStore } from '../lib/sessions/stores/redis-store'
import { startRedisServer } from '../lib/sessions/testing/redis-server'
import { offlineSkills, pluginTools } from '../plugins'
import { answerFlight, answerSeat, bookInProcess, startBooking } from './in-process-booking'
import type { SetupName } from './server-setups'
import { percentile } from './stats'
import { makeTempDir } from './temp-dir'

type Operations = 'get' | 'create' | 'update'

export interface ResumeStoreTime {
  /** A resume's wall time in-process (no HTTP, no Next), p50. */
  resumeP50Ms: number
  /** Per store operation: how many a resume makes, and how long one takes (p50). */
  operations: Partial<Record<Operations, { perResume: number; p50Ms: number }>>
  /** The time a resume spends waiting on the store, all its operations together (p50 over resumes). */
  storeP50Ms: number
}

/**
 * Where a resume's time goes, in-process with each store (and with cold sessions, hot time 0):
 * its wall time, and how much of it is spent waiting on the store. Explains the HTTP ratios.
 */
export async function measureResumeStoreTime(resumes: number, names: readonly SetupName[]): Promise<Partial<Record<SetupName, ResumeStoreTime>>> {
  const redis = names.includes('redis') ? await startRedisServer() : undefined
  const directory = makeTempDir('store-time')
  const stores: Record<SetupName, { hotMs?: number; open: () => Operation<SessionStore> }> = {
    memory: { open: function* () { return createMemorySessionStore() } },
    embedded: { open: () => useEmbeddedSessionStore({ directory: join(directory.path, 'embedded') }) },
    redis: { open: () => useRedisSessionStore({ url: redis!.url }) },
    cold: { hotMs: 0, open: () => useEmbeddedSessionStore({ directory: join(directory.path, 'cold') }) },
  }
  const results: Partial<Record<SetupName, ResumeStoreTime>> = {}
  try {
    for (const name of names) {
      const samples: Partial<Record<Operations, number[]>> = {}
      let recording = false
      let storeMs = 0
      const chat = await createChatServer({
        model: createOfflineModel({ delayMs: 0, skills: offlineSkills }),
        tools: pluginTools,
        hotMs: stores[name].hotMs,
        useStore: function* () {
          return timed(yield* stores[name].open(), (operation, ms) => {
            if (!recording) return
            ;(samples[operation] ??= []).push(ms)
            storeMs += ms
          })
        },
      })
      try {
        for (let index = 0; index < 50; index++) await bookInProcess(chat)
        const times: number[] = []
        const storeTimes: number[] = []
        for (let index = 0; index < resumes; index++) {
          const booking = await startBooking(chat)
          storeMs = 0
          recording = true
          const started = performance.now()
          const next = await answerFlight(booking)
          times.push(performance.now() - started)
          recording = false
          storeTimes.push(storeMs)
          await answerSeat(next)
        }
        const operations: ResumeStoreTime['operations'] = {}
        for (const [operation, values] of Object.entries(samples) as [Operations, number[]][]) {
          operations[operation] = { perResume: values.length / resumes, p50Ms: percentile(values, 50) }
        }
        results[name] = { resumeP50Ms: percentile(times, 50), operations, storeP50Ms: percentile(storeTimes, 50) }
      } finally {
        await chat.close()
      }
    }
  } finally {
    await redis?.stop()
    directory.remove()
  }
  return results
}

/** `store`, reporting how long each get, create and update took. */
function timed(store: SessionStore, report: (operation: Operations, ms: number) => void): SessionStore {
  const wrap = <A extends unknown[], T>(operation: Operations, method: (...args: A) => Operation<T>) =>
    function* (...args: A): Operation<T> {
      const started = performance.now()
      try {
        return yield* method.apply(store, args)
      } finally {
        report(operation, performance.now() - started)
      }
    }
  return { ...store, kind: store.kind, get: wrap('get', store.get), create: wrap('create', store.create), update: wrap('update', store.update) }
}
