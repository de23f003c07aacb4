import type { ElicitResult, JSONRPCMessage } from '@modelcontextprotocol/client'
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { OpenedApp } from './app-bridge-session'
import { MAX_APP_HEIGHT, openLinkAfterAsking } from './app-bridge-session'

/** What `POST /api/mcp-apps/question-frames` answers (lib/mcp/apps OpenedQuestionApp). */
export type OpenedQuestionApp = Omit<OpenedApp, 'bridgeTicket'>

export interface QuestionAppHandlers {
  resized(height: number): void
  log(level: string, message: string): void
  /** Resolves true once the person has confirmed opening the link. */
  confirmLink(url: string): Promise<boolean>
}

/** One question's app, connected: ask it the question once it is ready, tear it down after. */
export interface QuestionAppBridge {
  /**
   * Resolves once the app has completed `ui/initialize` and said it is initialized, with whether
   * it declared `appCapabilities.elicitation` (only then was it told the host's, and only then
   * may it be asked).
   */
  ready: Promise<{ answersQuestions: boolean }>
  /** Forward `elicitation/create` as the server sent it; the app's answer, checked to be an `ElicitResult`. */
  ask(request: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult>
  setHostContext(context: McpUiHostContext): void
  /** `ui/resource-teardown`, waited for at most `timeoutMs`, then the bridge closes. */
  teardown(timeoutMs: number): Promise<void>
}

/** How long the app may take to answer its question: as long as the call waits for the person (30 minutes). */
const ASK_TIMEOUT_MS = 30 * 60_000

/**
 * Connect the official `AppBridge` to the iframe of an app that answers one question of an
 * external server (app-rendered elicitation, SEP-3118 draft). The app gets the host's
 * `elicitation` capability only if it declared its own in `ui/initialize`, then the server's
 * `elicitation/create` as it came; it calls no tools (no `serverTools`) and posts no messages.
 * Its answer is checked in the chat and again on the server, never trusted as it is.
 *
 * ext-apps 2.0.4's `AppBridge` parses `appCapabilities` with a schema that has no `elicitation`
 * member and drops it, so the raw `ui/initialize` is read off the transport before the bridge
 * handles it; its `getCapabilities` (what the host answers) adds `elicitation` then.
 */
export async function connectQuestionAppBridge({
  frame,
  opened,
  hostContext,
  handlers,
}: {
  frame: Window
  opened: OpenedQuestionApp
  hostContext: McpUiHostContext
  handlers: QuestionAppHandlers
}): Promise<QuestionAppBridge> {
  // The bridge parses with Zod: without compiling parsers, which the page's CSP forbids (zod-without-eval.ts).
  await import('@/lib/plugins/zod-without-eval')
  const { AppBridge, PostMessageTransport } = await import('@modelcontextprotocol/ext-apps/app-bridge')
  const capabilities: McpUiHostCapabilities = { openLinks: {}, logging: {}, sandbox: { csp: opened.csp } }
  const bridge = new AppBridge(null, { name: 'elicit-chat', version: '0.1.0' }, capabilities, { hostContext })
  let declared = false
  bridge.getCapabilities = () => (declared ? ({ ...capabilities, elicitation: {} } as McpUiHostCapabilities) : capabilities)

  const ready = new Promise<{ answersQuestions: boolean }>((resolve) => {
    bridge.oninitialized = () => resolve({ answersQuestions: declared })
  })
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) handlers.resized(Math.min(Math.max(Math.ceil(height), 0), MAX_APP_HEIGHT))
  })
  bridge.addEventListener('loggingmessage', ({ level, data }) => handlers.log(level, typeof data === 'string' ? data : JSON.stringify(data)))
  bridge.onopenlink = openLinkAfterAsking(handlers.confirmLink)

  const transport = new PostMessageTransport(frame, frame)
  await bridge.connect(transport)
  const deliver = transport.onmessage
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message && message.method === 'ui/initialize' && 'id' in message) declared = declaresElicitation(message.params)
    deliver?.(message, extra)
  }

  return {
    ready,
    ask: (request, signal) => bridge.request({ method: 'elicitation/create', params: request as never }, { signal, timeout: ASK_TIMEOUT_MS }),
    setHostContext: (context) => bridge.setHostContext(context),
    async teardown(timeoutMs) {
      try {
        await bridge.teardownResource({}, { timeout: timeoutMs })
      } catch {
        // An app that does not answer is removed all the same.
      }
      await bridge.close()
    },
  }
}

function declaresElicitation(params: unknown): boolean {
  const elicitation = (params as { appCapabilities?: { elicitation?: unknown } } | undefined)?.appCapabilities?.elicitation
  return typeof elicitation === 'object' && elicitation !== null
}
