// An app-rendered question in the host people use (docs/benchmarks.md, "Targets against now":
// the plugin's component visible in the host at most 300 ms after the `elicitation/create` arrives): MCP
// Inspector 2.12.0's web client (SEP-3118 app-rendered elicitations) in Chromium, connected in
// 2025-11-25 (its default) to the production app's /api/mcp, driven through its UI with the
// e2e suite's helpers (e2e/support, e2e/pages). `runs` bookings after one unmeasured, each:
// - flight question: the person's click on "Execute Tool" → our FlightList painted in the app's frame;
// - seat question: the person's click on a flight in our FlightList → our SeatPicker's seat map painted.
// Both ends are epoch ms in the browser on this machine: the click's `Date.now()` from a
// capturing listener in the frame clicked (a script Playwright adds to every frame, cross-origin
// ones included), "painted" the app frame's first-contentful-paint (its time origin plus the
// paint's start). So each figure is an UPPER BOUND of "elicitation arrives → visible": it also
// holds the request out (tools/call, or the answer) through Inspector's proxy and the server's
// round before the question is sent; that server share is printed beside it, measured on the
// same server with a plain 2026-07-28 client (the call → flight question, the flight answer →
// seat question), and so is the part from the app's frame created to painted.
// The first run downloads Inspector and Node 22 from the npm registry (npx), which takes minutes;
// later runs use npx's cache. Machine-speed-dependent, so a bench, not a test.
// Alone: npx tsx bench/app-question.ts [runs]. In `npm run bench`: BENCH_APP_QUESTION_RUNS.
import { chromium, type ConsoleMessage, type Frame, type Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { InspectorPage } from '../e2e/pages/inspector-page'
import { startApp } from '../e2e/support/app-process'
import { INSPECTOR_VERSION, startInspector } from '../e2e/support/inspector-process'
import { bookOverMcpRounds } from './mcp-booking'

export const APP_QUESTION_MS_TARGET = 300
const SERVER = 'elicit-chat'
/** Plain-client bookings for the server's share, after as many unmeasured. */
const SERVER_SHARE_BOOKINGS = 20

export interface AppQuestionMeasures {
  runs: number
  inspector: string
  /** The protocol revision Inspector negotiated. */
  protocol: string
  /** ms, click on "Execute Tool" → FlightList painted, one per run. */
  flight: number[]
  /** ms, click on a flight → seat map painted, one per run. */
  seat: number[]
  /** ms, of each: the app's frame created (its document's time origin) → painted: loading the app, its handshake, the question forwarded, the render. */
  appFrame: { flight: number[]; seat: number[] }
  /** The server's part of each, from a plain 2026-07-28 client on the same server (ms per round). */
  server: { flight: number[]; seat: number[] }
}

type Component = 'flight' | 'seat'
/** What stampClicks says on the console for each click (kept in step with its own copy). */
const CLICK_MARK = 'app-question clicked at '

/**
 * Runs in every frame: stamps each click, capturing, so before the page's own handlers send
 * anything, and says it on the console too (the seat's click is in a frame Inspector has replaced
 * by the time the seat map shows). Serialized by Playwright, so self-contained.
 */
function stampClicks() {
  const CLICK_MARK = 'app-question clicked at '
  const marks = { clickedAt: undefined as number | undefined }
  ;(window as unknown as { __appQuestion: typeof marks }).__appQuestion = marks
  document.addEventListener(
    'click',
    () => {
      marks.clickedAt = Date.now()
      console.debug(`${CLICK_MARK}${marks.clickedAt}`)
    },
    true,
  )
}

const clickedAt = (frame: Frame) => frame.evaluate(() => (window as unknown as { __appQuestion: { clickedAt?: number } }).__appQuestion.clickedAt)

/**
 * When the app's frame first painted content, as epoch ms: its first-contentful-paint. The app's
 * document is an empty `#root` until the host forwards the question, which it renders in one
 * commit, so its first contentful paint is our component's. Read from the performance timeline
 * (buffered), so it is exact however late it is asked for.
 */
async function paintedAt(frame: Frame): Promise<{ at: number; sinceOrigin: number }> {
  const painted = frame.evaluate(
    () =>
      new Promise<{ at: number; sinceOrigin: number }>((resolve) => {
        const observer = new PerformanceObserver((entries) => {
          const paint = entries.getEntriesByName('first-contentful-paint')[0]
          if (!paint) return
          observer.disconnect()
          resolve({ at: performance.timeOrigin + paint.startTime, sinceOrigin: paint.startTime })
        })
        observer.observe({ type: 'paint', buffered: true })
      }),
  )
  return withinTenSeconds(painted, "the app's frame shows our component but reported no first-contentful-paint")
}

/** `promise`'s value, or an error saying `what` if it takes more than 10 s (a bench run must end). */
async function withinTenSeconds<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within 10 s`)), 10_000)))
  // Raced below; this only keeps a rejection after the deadline (the browser closed) from being unhandled.
  promise.catch(() => {})
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

export async function measureAppQuestion({ runs }: { runs: number }): Promise<AppQuestionMeasures> {
  const app = await startApp()
  try {
    const url = `${app.url}/api/mcp`
    const inspectorProcess = await startInspector({ servers: { [SERVER]: { url } } })
    try {
      const bundled = chromium.executablePath()
      const browser = await chromium.launch({ executablePath: existsSync(bundled) ? undefined : '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
      try {
        const context = await browser.newContext()
        await context.addInitScript(stampClicks)
        const page = await context.newPage()
        const inspector = new InspectorPage(page, inspectorProcess.url)
        await inspector.open()
        const protocol = await inspector.connect(SERVER)
        const flight: number[] = []
        const seat: number[] = []
        const appFrame = { flight: [] as number[], seat: [] as number[] }
        // One booking first, unmeasured: the server's, Inspector's and the browser's caches warm up.
        for (let run = 0; run <= runs; run++) {
          const booking = await bookOnce(inspector)
          if (run === 0) continue
          flight.push(booking.flight.ms)
          seat.push(booking.seat.ms)
          appFrame.flight.push(booking.flight.appFrameMs)
          appFrame.seat.push(booking.seat.appFrameMs)
        }
        return { runs, inspector: INSPECTOR_VERSION, protocol, flight, seat, appFrame, server: await serverShare(app.url) }
      } finally {
        await browser.close()
      }
    } finally {
      await inspectorProcess.stop()
    }
  } finally {
    await app.kill()
  }
}

/** The time of the next click in any frame of the page, as stampClicks says it on the console. */
function nextClick(page: Page): Promise<number> {
  return new Promise((resolve) => {
    const listen = (message: ConsoleMessage) => {
      if (!message.text().startsWith(CLICK_MARK)) return
      page.off('console', listen)
      resolve(Number(message.text().slice(CLICK_MARK.length)))
    }
    page.on('console', listen)
  })
}

/** The app's own frame (inside Inspector's sandbox proxy), once our component is visible in it. */
async function appFrameShowing(inspector: InspectorPage, component: Component): Promise<Frame> {
  const shown = component === 'flight' ? inspector.app().getByRole('region', { name: /^Flights from / }) : inspector.app().getByRole('grid', { name: /^Seat map for / })
  await shown.waitFor({ state: 'visible' })
  const frame = await (await inspector.app().owner().elementHandle())?.contentFrame()
  if (!frame) throw new Error(`no app frame showing the ${component} question`)
  return frame
}

/** One booking through Inspector's UI, to its ticket; the two questions timed as the file's comment says. */
async function bookOnce(inspector: InspectorPage): Promise<Record<Component, { ms: number; appFrameMs: number }>> {
  await inspector.callTool('book_flight', { from: 'NYC', destination: 'LAX' })
  const flightFrame = await appFrameShowing(inspector, 'flight')
  // Clicks in Inspector's page after "Execute Tool": none, so its last click is that one.
  const executedAt = await clickedAt(inspector.page.mainFrame())
  if (executedAt === undefined) throw new Error("no click was seen in Inspector's page")
  const flightPainted = await paintedAt(flightFrame)

  // Inspector replaces the flight's frame by the seat's: the click's stamp comes by the console.
  const picked = nextClick(inspector.page)
  await inspector.app().getByRole('button', { name: /^JetStream JS \d+/ }).click()
  const seatFrame = await appFrameShowing(inspector, 'seat')
  const seatPainted = await paintedAt(seatFrame)
  // Said before the seat's question was even sent, so already here; the deadline only turns a lost message into an error.
  const pickedAt = await withinTenSeconds(picked, "the click on a flight was not reported on the console")

  await inspector.app().getByRole('button', { name: /^Seat \d+[A-F]$/, disabled: false }).first().click()
  await inspector.app().getByRole('button', { name: 'Confirm' }).click()
  await inspector.answerSampling('Take the FlyAway bus to Union Station.')
  await inspector.result.filter({ hasText: /"ticketNumber": "TKT-[A-Z0-9]+"/ }).waitFor()
  // Closed as a person would, for the tool's form to show again (and no ticket left to mistake for the next).
  await inspector.page.getByRole('button', { name: 'Close results' }).click()
  await inspector.result.waitFor({ state: 'detached' })
  return {
    flight: { ms: flightPainted.at - executedAt, appFrameMs: flightPainted.sinceOrigin },
    seat: { ms: seatPainted.at - pickedAt, appFrameMs: seatPainted.sinceOrigin },
  }
}

/** The server's round for each question, from a plain client over loopback: the part of the figures that is not the host. */
async function serverShare(base: string): Promise<{ flight: number[]; seat: number[] }> {
  for (let index = 0; index < SERVER_SHARE_BOOKINGS; index++) await bookOverMcpRounds(base)
  const flight: number[] = []
  const seat: number[] = []
  for (let index = 0; index < SERVER_SHARE_BOOKINGS; index++) {
    const [call, answer] = await bookOverMcpRounds(base)
    flight.push(call!)
    seat.push(answer!)
  }
  return { flight, seat }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureAppQuestion({ runs: Number(process.argv[2]) || 10 })
  console.log(JSON.stringify(result, null, 2))
}
