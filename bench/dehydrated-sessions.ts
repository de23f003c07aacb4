import { setTimeout as sleep } from 'node:timers/promises'
import { run } from 'effection'
import { createChatServer } from '../lib/engine/chat-server'
import { createOfflineModel } from '../lib/models'
import type { SessionStore } from '../lib/sessions'
import { useEmbeddedSessionStore } from '../lib/sessions/stores/embedded-store'
import { offlineSkills, pluginTools } from '../plugins'
import { IDLE_MS } from './in-process'
import { answerFlight, answerSeat, bookInProcess, startBooking } from './in-process-booking'
import { heapAfterGc, idleCpuMs } from './own-process'
import { percentile } from './stats'
import { makeTempDir } from './temp-dir'

/**
 * Many sessions waiting on the FlightList with their tools dropped from memory (hot time 0),
 * kept in the embedded store in a temp directory: how long they take to start, the heap each
 * costs once collected, the CPU they cost while nobody answers, and that answering them still
 * works (each answer replays the journal): the oldest, then `answered - 1` spread among the rest.
 */
export async function measureDehydratedSessions(count: number, { batch = 250, answered = 10 }: { batch?: number; answered?: number } = {}) {
  const directory = makeTempDir('dehydrated')
  let store: SessionStore | undefined
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: offlineSkills }),
    tools: pluginTools,
    hotMs: 0,
    useStore: function* () {
      store = yield* useEmbeddedSessionStore({ directory: directory.path })
      return store
    },
  })
  try {
    // Warm up every path a waiting session and its replay take.
    for (let index = 0; index < 20; index++) await bookInProcess(chat)
    const baselineCpuMs = await idleCpuMs(IDLE_MS)
    const heapBefore = heapAfterGc()
    const rssBefore = process.memoryUsage().rss

    const started = performance.now()
    // Kept to be answered at the end: the oldest, and one every `count / answered` sessions.
    const kept = [await startBooking(chat)]
    const every = Math.max(1, Math.floor(count / answered))
    for (let done = 1; done < count; ) {
      const size = Math.min(batch, count - done)
      const bookings = await Promise.all(Array.from({ length: size }, () => startBooking(chat)))
      for (let index = 0; index < size; index++) if ((done + index) % every === 0 && kept.length < answered) kept.push(bookings[index]!)
      done += size
      progress(`  starting waiting sessions: ${done}/${count}`)
    }
    const startSeconds = (performance.now() - started) / 1000
    progress('')
    // The last tools are dropped from memory just after their question is recorded.
    await sleep(500)
    const heapAfter = heapAfterGc()
    const rssAfter = process.memoryUsage().rss
    const waitingCpuMs = await idleCpuMs(IDLE_MS)
    const waitingInStore = (await run(() => store!.list({ statuses: ['waiting'], limit: count + 1 }))).length

    heapAfterGc() // The list's garbage, so that no answer below pays for collecting it.
    const replays: number[] = []
    for (const booking of kept) {
      const replayStarted = performance.now()
      const seatQuestion = await answerFlight(booking)
      replays.push(performance.now() - replayStarted)
      await answerSeat(seatQuestion)
    }

    return {
      sessions: count,
      waitingInStore,
      startSeconds,
      startsPerSecond: count / startSeconds,
      heapPerSessionKB: (heapAfter - heapBefore) / count / 1024,
      heapBeforeMB: heapBefore / 2 ** 20,
      heapAfterMB: heapAfter / 2 ** 20,
      /** Includes the store's memory-mapped pages that were touched: not heap. */
      rssPerSessionKB: (rssAfter - rssBefore) / count / 1024,
      idleMs: IDLE_MS,
      baselineCpuMs,
      waitingCpuMs,
      /** Answers to waiting sessions, each replayed then booked to the end: the oldest first. */
      answered: { count: replays.length, oldestMs: replays[0]!, p50Ms: percentile(replays, 50), maxMs: Math.max(...replays) },
    }
  } finally {
    await chat.close()
    directory.remove()
  }
}

/** A progress line on a terminal, rewritten in place; nothing when the output is a file. */
function progress(line: string) {
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(60)}${line ? '' : '\r'}`)
}
