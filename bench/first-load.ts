// The first load of the chat, as Lighthouse 12.8 measures it (mobile: a Moto G Power's screen,
// 4x CPU slowdown and slow 4G, simulated), against a bare Next page measured the same way (the
// app's 404: Next's runtime and the same layout, nothing of ours), the median of `runs` each.
// Offline: Lighthouse drives Debian's Chromium against the production server on 127.0.0.1.
// Alone, against a running server: npx tsx bench/first-load.ts [base URL] [runs]
import { launch } from 'chrome-launcher'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import lighthouse from 'lighthouse'
import { percentile } from './stats'

export interface PageLoad {
  /** JavaScript transferred (compressed), the median over the runs. */
  scriptKiB: number
  scripts: number
  largestContentfulPaintMs: number
  firstContentfulPaintMs: number
}

export interface FirstLoadMeasures {
  runs: number
  chat: PageLoad
  bare: PageLoad
  /** The chat's LCP over the bare page's (issue 26: at most 1.5). */
  lcpRatio: number
}

/** The first load's JavaScript may be at most this much (issue 26). */
export const FIRST_LOAD_SCRIPT_KIB_TARGET = 180
export const FIRST_LOAD_LCP_RATIO_TARGET = 1.5

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

export async function measureFirstLoad({ base, runs }: { base: string; runs: number }): Promise<FirstLoadMeasures> {
  const chrome = await launch({
    ...(CHROMIUM ? { chromePath: CHROMIUM } : {}),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  })
  try {
    const page = async (path: string): Promise<PageLoad> => {
      const loads: PageLoad[] = []
      for (let run = 0; run < runs; run++) {
        const lhr = await audit(`${base}${path}`)
        const items = ((lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? []).filter(
          (item) => item.resourceType === 'Script',
        )
        loads.push({
          scriptKiB: items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
          scripts: items.length,
          largestContentfulPaintMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
          firstContentfulPaintMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
        })
      }
      const median = (pick: (load: PageLoad) => number) => percentile(loads.map(pick), 50)
      return {
        scriptKiB: median((load) => load.scriptKiB),
        scripts: loads[0]!.scripts,
        largestContentfulPaintMs: median((load) => load.largestContentfulPaintMs),
        firstContentfulPaintMs: median((load) => load.firstContentfulPaintMs),
      }
    }
    /** One Lighthouse run; on a loaded machine a run sometimes fails (a protocol timeout): tried again, at most twice. */
    const audit = async (url: string, attempt = 1): Promise<NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']> => {
      // The bare page is a 404 by design: measured all the same.
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }, { extends: 'lighthouse:default', settings: { ignoreStatusCode: true } })
      const lhr = result?.lhr
      if (lhr && !lhr.runtimeError) return lhr
      const why = lhr?.runtimeError?.message ?? 'no result'
      if (attempt > 2) throw new Error(`Lighthouse could not measure ${url} in 3 attempts: ${why}`)
      console.log(`  (a Lighthouse run of ${url} failed, tried again: ${why})`)
      return audit(url, attempt + 1)
    }
    const chat = await page('/')
    const bare = await page('/no-such-page')
    return { runs, chat, bare, lcpRatio: chat.largestContentfulPaintMs / bare.largestContentfulPaintMs }
  } finally {
    chrome.kill()
  }
}

export function describePageLoad(label: string, load: PageLoad): string {
  return `${label}: ${load.scripts} scripts, ${load.scriptKiB.toFixed(1)} KiB of JavaScript transferred; FCP ${(load.firstContentfulPaintMs / 1000).toFixed(2)} s, LCP ${(load.largestContentfulPaintMs / 1000).toFixed(2)} s`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const measures = await measureFirstLoad({ base: process.argv[2] ?? 'http://127.0.0.1:3631', runs: Number(process.argv[3] ?? 5) })
  console.log(describePageLoad('chat page (/)', measures.chat))
  console.log(describePageLoad('bare Next page (404)', measures.bare))
  console.log(`LCP ratio ${measures.lcpRatio.toFixed(2)}× (target ≤ ${FIRST_LOAD_LCP_RATIO_TARGET}×)`)
}
