// npx tsx bench/page-weight.ts [base URL]: the JavaScript a first visit downloads, for the chat
// page and for a page with nothing of ours on it (Next's 404, the same layout), and first paint
// on a throttled phone (4x CPU slowdown, Lighthouse's mobile network), median of five loads each.
// Needs a running production server (`npm run build && PORT=3631 npm start`).
import { chromium, devices, type Page } from '@playwright/test'
import { existsSync } from 'node:fs'

const base = process.argv[2] ?? 'http://127.0.0.1:3631'
const RUNS = 5

interface Load {
  scripts: number
  encoded: number
  decoded: number
  firstContentfulPaint: number
  largestContentfulPaint: number
}

async function load(page: Page, url: string, throttle: boolean): Promise<Load> {
  const session = await page.context().newCDPSession(page)
  await session.send('Network.enable')
  await session.send('Network.setCacheDisabled', { cacheDisabled: true })
  if (throttle) {
    await session.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    // Lighthouse's "slow 4G": 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up.
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    })
  }
  const sizes = new Map<string, { encoded: number; decoded: number }>()
  const scripts = new Set<string>()
  session.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId)
  })
  session.on('Network.dataReceived', (event) => {
    const size = sizes.get(event.requestId) ?? { encoded: 0, decoded: 0 }
    size.encoded += event.encodedDataLength
    size.decoded += event.dataLength
    sizes.set(event.requestId, size)
  })
  await page.goto(url, { waitUntil: 'networkidle' })
  const paints = await page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number }>((resolve) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
        new PerformanceObserver((list) => {
          const entries = list.getEntries()
          resolve({ fcp, lcp: entries[entries.length - 1]?.startTime ?? NaN })
        }).observe({ type: 'largest-contentful-paint', buffered: true })
      }),
  )
  let encoded = 0
  let decoded = 0
  for (const id of scripts) {
    encoded += sizes.get(id)?.encoded ?? 0
    decoded += sizes.get(id)?.decoded ?? 0
  }
  await session.detach()
  return { scripts: scripts.size, encoded, decoded, firstContentfulPaint: paints.fcp, largestContentfulPaint: paints.lcp }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const bundled = chromium.executablePath()
const browser = await chromium.launch({
  executablePath: existsSync(bundled) ? undefined : '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  for (const [label, path] of [
    ['chat page (/)', '/'],
    ['bare Next page (404)', '/no-such-page'],
  ] as const) {
    const loads: Load[] = []
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ ...devices['Pixel 7'] })
      loads.push(await load(await context.newPage(), `${base}${path}`, true))
      await context.close()
    }
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
    console.log(
      `${label}: ${loads[0]!.scripts} scripts, ${kib(median(loads.map((l) => l.encoded)))} transferred, ` +
        `${kib(median(loads.map((l) => l.decoded)))} uncompressed; phone (4x CPU, slow 4G): ` +
        `FCP ${median(loads.map((l) => l.firstContentfulPaint)).toFixed(0)} ms, ` +
        `LCP ${median(loads.map((l) => l.largestContentfulPaint)).toFixed(0)} ms`,
    )
  }
} finally {
  await browser.close()
}
