import { connectHostBridge, type BridgeEnds, type HostBridge } from './host-bridge'
import { applyHostLook, applyTheme, systemTheme, type HostLook } from './host-theme'

/** The MCP Apps protocol revision this app speaks (ext-apps 2.0.4's `LATEST_PROTOCOL_VERSION`). */
export const APPS_PROTOCOL_VERSION = '2026-01-26'

/**
 * The app's handshake with its host, begun by a small script of its own at the top of the app's
 * document (scripts/mcp-apps/bundle-question-app.mjs), before the browser has parsed and run the
 * app's bundle: the host answers `ui/initialize` and forwards the question while the bundle loads.
 */
export interface Handshake {
  /** Connected `held`: what the host sends waits until the app's handlers are in place (`release()`). */
  bridge: HostBridge
  /** The host's `ui/initialize` result, once the app has said `ui/notifications/initialized`; rejects with the host's refusal. */
  initialized: Promise<Record<string, unknown>>
}

/**
 * Sends `ui/initialize` declaring `appCapabilities.elicitation` (SEP-3118) at once; on the host's
 * answer, takes its theme and CSS variables and says `ui/notifications/initialized`, as MCP Apps
 * has it. The host then sends its requests (the question); they wait in the held bridge.
 */
export function beginHandshake({ tool, key }: { tool: string; key: string }, ends: BridgeEnds = {}): Handshake {
  applyTheme(systemTheme())
  const bridge = connectHostBridge({ ...ends, held: true })
  const initialized = bridge
    .request('ui/initialize', {
      appInfo: { name: `${tool}/${key}`, version: '1.0.0' },
      appCapabilities: { elicitation: {} },
      protocolVersion: APPS_PROTOCOL_VERSION,
    })
    .then((result) => {
      applyHostLook((result.hostContext ?? {}) as HostLook)
      bridge.notify('ui/notifications/initialized')
      return result
    })
  // A refusal is read by the app once its bundle runs (startQuestionApp); until then it is not unhandled.
  initialized.catch(() => {})
  return { bridge, initialized }
}

/** Where the early script leaves the handshake for the app's bundle: the two are separate scripts of one document. */
const HANDED_OVER = '__elicitChatQuestionAppHandshake'

export function handOver(handshake: Handshake): void {
  ;(globalThis as Record<string, unknown>)[HANDED_OVER] = handshake
}

/** The handshake the early script began; the app's bundle takes it once. */
export function takeHandshake(): Handshake {
  const global = globalThis as Record<string, unknown>
  const handshake = global[HANDED_OVER] as Handshake | undefined
  if (!handshake) throw new Error("This question's app was built without its handshake script (scripts/mcp-apps/bundle-question-app.mjs puts it first).")
  delete global[HANDED_OVER]
  return handshake
}
