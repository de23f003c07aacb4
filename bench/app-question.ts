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
// BENCH_APP_QUESTION_APPS=<dir> (both ways) serves the question apps built into <dir> instead of
// this build's: another version of the apps on the same server, for a before and after.
import { chromium, type ConsoleMessage, type Frame, type Page } from '@playwright/test'
import { copyFileSync, existsSync, readdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { InspectorPage } from '../e2e/pages/inspector-page'
import { startApp } from '../e2e/support/app-process'
import { INSPECTOR_VERSION, startInspector } from '../e2e/support/inspector-process'
import { bookOverMcpRounds } from './mcp-booking'
import { percentile } from './stats'
import { makeTempDir } from './temp-dir'

export const APP_QUESTION_MS_TARGET = 300
/** Our own part of it: the app's load and script, its first render and paint. */
export const APP_QUESTION_OWN_MS_TARGET = 100
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
  /** Where each question's time went, one per run (ms; see `Phases`). */
  phases: { flight: Phases[]; seat: Phases[] }
}

/**
 * One question's time, from the messages each frame received (epoch ms, this machine's clock):
 * the click → the `elicitation/create` parsed by Inspector's web client → the app's frame created
 * (Inspector's sandbox proxy given the app's HTML) → the app's `ui/initialize` (its document
 * parsed, its script run) → the host's answer → the question forwarded to the app → painted.
 */
export interface Phases {
  /** The click → the elicitation parsed by Inspector's page: the request through Inspector's proxy and the server's round. */
  clickToArrived: number
  /** The elicitation parsed → painted: the figure the target is set on. */
  arrivedToPainted: number
  /** The elicitation parsed → the app's frame created: Inspector's (its UI, the resource read, its sandbox proxy). */
  arrivedToFrame: number
  /** The app's frame created → its `ui/initialize` sent: our document parsed and our script run. */
  frameToInitialize: number
  /** `ui/initialize` sent → its answer received by the app: Inspector's. */
  initializeToAnswer: number
  /** The answer received → the question received by the app: our `initialized` sent, then Inspector's forwarding. */
  answerToQuestion: number
  /** The question received → painted: our first render and the browser's paint. */
  questionToPainted: number
  /** The app's frame created → its document's scripts all run (DOMContentLoaded): our document parsed, our scripts run. */
  frameToReady: number
  /** The question received → our render committed to the DOM (waiting for our script first, if it came before it was ready). */
  questionToRendered: number
  /** Our render committed → the browser's next frame begins (requestAnimationFrame). */
  renderedToFrame: number
  /** That frame's rendering steps on the main thread (style, layout, paint of every frame of the page). */
  frameSteps: number
  /** Those steps done → the first contentful paint's time (raster, compositing, presentation). */
  frameToPainted: number
  /** Ours, on the path from the frame created to painted: all of it, less the time our app waited for the host with its script already run. */
  own: number
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

/** What stampMessages says on the console for each JSON-RPC message a frame receives (kept in step with its own copy). */
const MESSAGE_MARK = 'app-question message '

/**
 * Runs in every frame: says on the console, as epoch ms, each MCP Apps message the frame
 * receives (`postMessage` between Inspector's page, its sandbox proxy and the app), before the
 * frame's own listeners run. Where the app's frame spends its time comes from these.
 */
function stampMessages() {
  const MESSAGE_MARK = 'app-question message '
  const where = location.href.startsWith('about:srcdoc') ? 'app' : window.top === window ? 'host' : 'proxy'
  const now = () => performance.timeOrigin + performance.now()
  const say = (what: string, at = now()) => console.debug(`${MESSAGE_MARK}${JSON.stringify({ at, where, what, origin: performance.timeOrigin })}`)
  if (where === 'host') {
    // The server's elicitation/create reaching Inspector's web client: the message as the client parses it off its stream.
    const parse = JSON.parse
    const isElicitation = (value: unknown) => typeof value === 'object' && value !== null && (value as { method?: unknown }).method === 'elicitation/create'
    JSON.parse = function (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
      const value = parse(text, reviver) as unknown
      if (isElicitation(value) || (typeof value === 'object' && value !== null && Object.values(value).some(isElicitation))) say('elicitation arrived')
      return value
    } as typeof JSON.parse
  }
  if (where === 'app') {
    // Our scripts' end: every script of the app's document is inline, so the parser has run them all by
    // DOMContentLoaded. From the navigation timing, so exact even if this script runs after it.
    const ready = () => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
      say('document ready', navigation && navigation.domContentLoadedEventStart > 0 ? performance.timeOrigin + navigation.domContentLoadedEventStart : now())
    }
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready)
    else ready()
    // Painted: the frame's first contentful paint. Our document is an empty #root until the host forwards
    // the question, which we render in one commit, so that paint is our component's. Said from here so that
    // the bench need not look into the frame (Playwright's own script, injected in it, costs the frame's
    // main thread tens of ms) before it has painted.
    new PerformanceObserver((entries, observer) => {
      const paint = entries.getEntriesByName('first-contentful-paint')[0]
      if (!paint) return
      observer.disconnect()
      say('painted', performance.timeOrigin + paint.startTime)
    }).observe({ type: 'paint', buffered: true })
    // Our first render committed (the first nodes put in #root), then the browser's frame that paints it:
    // its rendering steps begin (rAF) and end (a task queued from the rAF runs after them).
    new MutationObserver((mutations, observer) => {
      if (!mutations.some((mutation) => (mutation.target as Element).id === 'root' && mutation.addedNodes.length > 0)) return
      observer.disconnect()
      say('rendered')
      requestAnimationFrame(() => {
        say('frame begun')
        setTimeout(() => say('frame done'), 0)
      })
    }).observe(document, { childList: true, subtree: true })
  }
  window.addEventListener(
    'message',
    (event: MessageEvent) => {
      const data = event.data as { method?: unknown; id?: unknown; result?: unknown } | null
      if (typeof data !== 'object' || data === null) return
      const what = typeof data.method === 'string' ? data.method : 'result' in data ? `result ${String(data.id)}` : undefined
      // When the event was dispatched (its timeStamp), whichever of the frame's listeners runs first: the
      // app's own may run before this one, and the render it starts with it.
      if (what) say(what, performance.timeOrigin + event.timeStamp)
    },
    true,
  )
}

/** One message a frame received, as stampMessages said it. */
interface Stamp {
  at: number
  where: 'app' | 'host' | 'proxy'
  what: string
  /** The receiving frame's time origin (epoch ms). */
  origin: number
}

const clickedAt = (frame: Frame) => frame.evaluate(() => (window as unknown as { __appQuestion: { clickedAt?: number } }).__appQuestion.clickedAt)

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

/**
 * `runs` bookings through Inspector. `apps`: a folder of question apps built elsewhere (`node
 * scripts/build-mcp-apps.mjs --out <dir>` in another checkout) to serve instead of this build's,
 * so that two versions of the apps compare on one server build, one run after the other.
 */
export async function measureAppQuestion({ runs, apps }: { runs: number; apps?: string }): Promise<AppQuestionMeasures> {
  const deployed = apps ? deployedWithApps(apps) : undefined
  const app = await startApp(deployed ? { deployedAt: deployed.path } : {})
  try {
    const url = `${app.url}/api/mcp`
    const inspectorProcess = await startInspector({ servers: { [SERVER]: { url } } })
    try {
      const bundled = chromium.executablePath()
      const browser = await chromium.launch({ executablePath: existsSync(bundled) ? undefined : '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
      try {
        const context = await browser.newContext()
        await context.addInitScript(stampClicks)
        // As source: tsx names the script's inner functions with a helper (`__name`) the page lacks.
        await context.addInitScript({ content: `var __name = (fn) => fn;(${stampMessages.toString()})()` })
        const page = await context.newPage()
        const stamps: Stamp[] = []
        page.on('console', (message) => {
          if (message.text().startsWith(MESSAGE_MARK)) stamps.push(JSON.parse(message.text().slice(MESSAGE_MARK.length)) as Stamp)
        })
        const inspector = new InspectorPage(page, inspectorProcess.url)
        await inspector.open()
        const protocol = await inspector.connect(SERVER)
        const flight: number[] = []
        const seat: number[] = []
        const appFrame = { flight: [] as number[], seat: [] as number[] }
        const phases = { flight: [] as Phases[], seat: [] as Phases[] }
        // One booking first, unmeasured: the server's, Inspector's and the browser's caches warm up.
        for (let run = 0; run <= runs; run++) {
          const booking = await bookOnce(inspector)
          const seen = stamps.splice(0)
          if (run === 0) continue
          phases.flight.push(phasesOf(seen, booking.flight))
          phases.seat.push(phasesOf(seen, booking.seat))
          flight.push(booking.flight.ms)
          seat.push(booking.seat.ms)
          appFrame.flight.push(booking.flight.appFrameMs)
          appFrame.seat.push(booking.seat.appFrameMs)
        }
        return { runs, inspector: INSPECTOR_VERSION, protocol, flight, seat, appFrame, phases, server: await serverShare(app.url) }
      } finally {
        await browser.close()
      }
    } finally {
      await inspectorProcess.stop()
    }
  } finally {
    await app.kill()
    deployed?.remove()
  }
}

/** A deployed copy of this build's standalone server (its files linked, its own starter and server.js, which run in their folder) serving the apps in `apps`. */
function deployedWithApps(apps: string): { path: string; remove(): void } {
  const standalone = path.resolve('.next/standalone')
  const copy = makeTempDir('app-question')
  for (const entry of readdirSync(standalone)) {
    if (entry === '.mcp-apps' || entry === '.data') continue
    const [from, to] = [path.join(standalone, entry), path.join(copy.path, entry)]
    if (/\.(m?js|json)$/.test(entry)) copyFileSync(from, to)
    else symlinkSync(from, to)
  }
  symlinkSync(path.resolve(apps), path.join(copy.path, '.mcp-apps'))
  return copy
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

/** The next first contentful paint of an app's frame, as stampMessages says it on the console: when (epoch ms), and the frame's time origin. */
function nextPaint(page: Page): Promise<{ at: number; origin: number }> {
  return new Promise((resolve) => {
    const listen = (message: ConsoleMessage) => {
      if (!message.text().startsWith(MESSAGE_MARK)) return
      const stamp = JSON.parse(message.text().slice(MESSAGE_MARK.length)) as Stamp
      if (stamp.where !== 'app' || stamp.what !== 'painted') return
      page.off('console', listen)
      resolve(stamp)
    }
    page.on('console', listen)
  })
}

/**
 * The app's paint that `painted` says, once it came: when, and since the frame was created. Then,
 * and only then, the frame is looked into: our component must be visible in it, and the frame
 * that painted must be the one showing it.
 */
async function paintShowing(inspector: InspectorPage, component: Component, painted: Promise<{ at: number; origin: number }>): Promise<{ at: number; sinceOrigin: number }> {
  const paint = await withinTenSeconds(painted, `the ${component} question's app frame painted nothing`)
  const shown = component === 'flight' ? inspector.app().getByRole('region', { name: /^Flights from / }) : inspector.app().getByRole('grid', { name: /^Seat map for / })
  await shown.waitFor({ state: 'visible' })
  const frame = await (await inspector.app().owner().elementHandle())?.contentFrame()
  if (!frame || (await frame.evaluate(() => performance.timeOrigin)) !== paint.origin) throw new Error(`the frame that painted is not the one showing the ${component} question`)
  return { at: paint.at, sinceOrigin: paint.at - paint.origin }
}

/** One booking through Inspector's UI, to its ticket; the two questions timed as the file's comment says. */
async function bookOnce(inspector: InspectorPage): Promise<Record<Component, Timed>> {
  const flightPaint = nextPaint(inspector.page)
  await inspector.callTool('book_flight', { from: 'NYC', destination: 'LAX' })
  const flightPainted = await paintShowing(inspector, 'flight', flightPaint)
  // Clicks in Inspector's page after "Execute Tool": none, so its last click is that one.
  const executedAt = await clickedAt(inspector.page.mainFrame())
  if (executedAt === undefined) throw new Error("no click was seen in Inspector's page")

  // Inspector replaces the flight's frame by the seat's: the click's stamp comes by the console.
  const picked = nextClick(inspector.page)
  const seatPaint = nextPaint(inspector.page)
  await inspector.app().getByRole('button', { name: /^JetStream JS \d+/ }).click()
  const seatPainted = await paintShowing(inspector, 'seat', seatPaint)
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
    flight: { ms: flightPainted.at - executedAt, appFrameMs: flightPainted.sinceOrigin, clickedAt: executedAt, paintedAt: flightPainted.at },
    seat: { ms: seatPainted.at - pickedAt, appFrameMs: seatPainted.sinceOrigin, clickedAt: pickedAt, paintedAt: seatPainted.at },
  }
}

/** One question as bookOnce timed it: epoch ms of the click and the paint. */
interface Timed {
  ms: number
  appFrameMs: number
  clickedAt: number
  paintedAt: number
}

/** The question's phases from the stamps of its booking (each the first of its kind after the step before). */
function phasesOf(stamps: Stamp[], { clickedAt, paintedAt, appFrameMs }: Timed): Phases {
  const frameAt = paintedAt - appFrameMs
  const first = (where: Stamp['where'], what: string, after: number) => {
    // Not seen (a host that reads its stream where no page script can see it): NaN, which the figures leave out.
    return stamps.find((candidate) => candidate.where === where && candidate.what === what && candidate.at >= after && candidate.at <= paintedAt)?.at ?? NaN
  }
  const arrived = first('host', 'elicitation arrived', clickedAt)
  // The app's requests go through the proxy: it receives them from the app, as they are sent.
  const initialize = first('proxy', 'ui/initialize', frameAt)
  const answer = first('app', 'result 1', initialize)
  const question = first('app', 'elicitation/create', answer)
  const ready = first('app', 'document ready', frameAt)
  const rendered = first('app', 'rendered', question)
  const frameBegun = first('app', 'frame begun', rendered)
  // Not `first`: the paint's time is its presentation, which may come before this task runs.
  const frameDone = stamps.find((candidate) => candidate.where === 'app' && candidate.what === 'frame done' && candidate.at >= frameBegun)?.at ?? NaN
  // The host's turns (answering ui/initialize, forwarding the question) cost us only where our script had run before the question came.
  const waitedForHost = Math.max(0, question - Math.max(ready, initialize))
  return {
    clickToArrived: arrived - clickedAt,
    arrivedToPainted: paintedAt - arrived,
    arrivedToFrame: frameAt - arrived,
    frameToInitialize: initialize - frameAt,
    initializeToAnswer: answer - initialize,
    answerToQuestion: question - answer,
    questionToPainted: paintedAt - question,
    frameToReady: ready - frameAt,
    questionToRendered: rendered - question,
    renderedToFrame: frameBegun - rendered,
    frameSteps: frameDone - frameBegun,
    frameToPainted: paintedAt - frameDone,
    own: paintedAt - frameAt - waitedForHost,
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

/** The phases of each question, p50 and p95 (ms), as lines to print; then the target's figure: the p95 of elicitation parsed → painted, the worse question's. */
export function describePhases({ phases }: AppQuestionMeasures): { lines: string[]; arrivedToPaintedP95: number; ourP95: number } {
  const names: Array<[keyof Phases, string]> = [
    ['clickToArrived', 'click -> elicitation parsed by Inspector (its proxy, our server)'],
    ['arrivedToPainted', 'elicitation parsed -> painted (the target)'],
    ['arrivedToFrame', '  parsed -> app frame created (Inspector: UI, resource, sandbox)'],
    ['frameToInitialize', '  frame created -> ui/initialize sent (ours: HTML parsed, script run)'],
    ['initializeToAnswer', '  ui/initialize -> answered (Inspector)'],
    ['answerToQuestion', '  answered -> question at the app (initialized, then Inspector)'],
    ['questionToPainted', '  question -> painted (ours: first render, the paint)'],
    ['questionToRendered', '    question -> our render committed (#root filled)'],
    ['renderedToFrame', '    committed -> the next frame begins (rAF)'],
    ['frameSteps', "    the frame's steps on the main thread (style, layout, paint)"],
    ['frameToPainted', '    steps done -> first contentful paint (raster, composite)'],
    ['frameToReady', '  frame created -> our scripts all run (DOMContentLoaded)'],
    ['own', '  ours: frame created -> painted, less waiting on the host after our scripts ran'],
  ]
  const stat = (all: number[]) => {
    const values = all.filter(Number.isFinite)
    return `p50 ${percentile(values, 50).toFixed(0).padStart(4)} ms  p95 ${percentile(values, 95).toFixed(0).padStart(4)} ms${values.length < all.length ? ` (${all.length - values.length} not seen)` : ''}`
  }
  const lines: string[] = []
  for (const question of ['flight', 'seat'] as const) {
    lines.push(`${question}:`)
    for (const [key, name] of names) lines.push(`  ${name.padEnd(80)} ${stat(phases[question].map((phase) => phase[key]))}`)
  }
  const p95Of = (key: keyof Phases) => Math.max(...(['flight', 'seat'] as const).map((question) => percentile(phases[question].map((phase) => phase[key]).filter(Number.isFinite), 95)))
  return {
    lines,
    arrivedToPaintedP95: p95Of('arrivedToPainted'),
    ourP95: p95Of('own'),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureAppQuestion({ runs: Number(process.argv[2]) || 10, apps: process.env.BENCH_APP_QUESTION_APPS || undefined })
  console.log(JSON.stringify(result, null, 2))
  const { lines, arrivedToPaintedP95, ourP95 } = describePhases(result)
  console.log(`${lines.join('\n')}\nelicitation parsed -> painted, p95 of the worse question: ${arrivedToPaintedP95.toFixed(0)} ms; our own part (load and script, render and paint) p95 ${ourP95.toFixed(0)} ms`)
}
