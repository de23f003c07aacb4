// Opening a kept chat of 200 messages (issue 25: rendered in ≤ 300 ms): the production server
// with the embedded store, a chat of 100 turns imported through the chats API (each turn a
// question and an answer of a few sentences, with a tool card every tenth turn), then opened at
// /c/<id> in Chromium, `runs` times. Two figures, the median of the runs:
// - open: from navigation to the 200th message in the page;
// - render: from the chat's JSON having arrived (`GET /api/chats/:id`, resource timing) to the
//   200th message in the page — the replay through the reducer and React's render.
// Machine-speed-dependent, so a bench, not a test. Alone: npx tsx bench/open-chat.ts [runs]
// In `npm run bench`: the conversations section (BENCH_OPEN_CHAT_RUNS).
import { chromium } from '@playwright/test'
import { existsSync } from 'node:fs'
import { freePort } from '../lib/testing/server-process'
import { startServer } from './server-process'
import { percentile } from './stats'
import { makeTempDir } from './temp-dir'

export const OPEN_CHAT_RENDER_MS_TARGET = 300
const TURNS = 100

export interface OpenChat {
  runs: number
  messages: number
  openMs: number
  renderMs: number
}

function chatOf200Messages() {
  const turns = Array.from({ length: TURNS }, (_, index) => {
    const text = `Question ${index}: what about the trip from Paris to Lyon on day ${index}?`
    const answer = `Answer ${index}. The train leaves at 08:${String(index % 60).padStart(2, '0')} and takes about two hours. **Bring** your ticket; seats ${index}A and ${index}B are free.`
    const call = index % 10 === 0 ? [{ type: 'tool_calls' as const, calls: [{ id: `call_${index}`, name: 'search', arguments: { day: index } }] }, { type: 'tool_result' as const, id: `call_${index}`, name: 'search', content: JSON.stringify({ trains: index }) }] : []
    return { input: { text }, events: [...call, ...answer.match(/.{1,24}/g)!.map((content) => ({ type: 'text', content })), { type: 'conversation_state', messages: [] }, { type: 'complete', text: answer }] }
  })
  const messages = turns.flatMap((turn) => [{ role: 'user', content: turn.input.text }, { role: 'assistant', content: (turn.events.at(-1) as { text: string }).text }])
  // Only the chat's last conversation_state carries the conversation, as the server keeps it.
  ;(turns.at(-1)!.events.at(-2) as { messages: unknown[] }).messages = messages
  return { format: 'elicit-chat', version: 1, title: 'A long chat', createdAt: 0, updatedAt: 0, turns, conversationState: messages }
}

export async function measureOpenChat({ port, runs = 7 }: { port: number; runs?: number }): Promise<OpenChat> {
  const dataDir = makeTempDir('open-chat')
  const server = await startServer({ port, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: '' } })
  const bundled = chromium.executablePath()
  const browser = await chromium.launch({ executablePath: existsSync(bundled) ? undefined : '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const context = await browser.newContext({ baseURL: server.base })
    const created = await context.request.post('/api/chats', { data: { import: chatOf200Messages() } })
    if (created.status() !== 201) throw new Error(`import: HTTP ${created.status()} ${await created.text()}`)
    const { chat } = (await created.json()) as { chat: { id: string } }
    const page = await context.newPage()
    const opens: number[] = []
    const renders: number[] = []
    // One run first, unmeasured: the server compiles nothing, but its caches and the browser's warm up.
    for (let run = 0; run <= runs; run++) {
      await page.goto(`/c/${chat.id}`)
      await page.waitForFunction((count) => document.querySelectorAll('[data-testid="user-message"]').length === count, TURNS)
      const { shown, loaded } = await page.evaluate(() => {
        const shown = performance.now()
        const loaded = performance.getEntriesByType('resource').find((entry) => /\/api\/chats\/[^/]+$/.test(entry.name)) as PerformanceResourceTiming | undefined
        return { shown, loaded: loaded?.responseEnd ?? NaN }
      })
      if (run === 0) continue
      opens.push(shown)
      renders.push(shown - loaded)
    }
    return { runs, messages: TURNS * 2, openMs: percentile(opens, 50), renderMs: percentile(renders, 50) }
  } finally {
    await browser.close()
    await server.stop()
    dataDir.remove()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureOpenChat({ port: await freePort({ host: '127.0.0.1' }), runs: Number(process.argv[2]) || undefined })
  console.log(
    `Opening a kept chat of ${result.messages} messages (median of ${result.runs}): ${result.openMs.toFixed(0)} ms from navigation, ` +
      `${result.renderMs.toFixed(0)} ms from its JSON to the page (target ≤ ${OPEN_CHAT_RENDER_MS_TARGET} ms)`,
  )
}
