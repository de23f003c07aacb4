import type { CallToolResult } from '@modelcontextprotocol/client'
import type { AppBridge, McpUiHostContext, McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge'
import { MAX_APP_CONTEXT_CHARS } from '@/lib/protocol/app-context-limits'

/** The size an app may ask for: tall enough for real UIs, bounded so a runaway app stays a card. */
export const MAX_APP_HEIGHT = 2_000

/** What an app shown inline in a card is told of the chat: its theme, its place, the person's locale. */
export function inlineHostContext(dark: boolean): McpUiHostContext {
  return {
    theme: dark ? 'dark' : 'light',
    platform: 'web',
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: MAX_APP_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }
}

/** What `POST /api/mcp-apps/frames` answers (lib/mcp/apps OpenedApp). */
export interface OpenedApp {
  uri: string
  src: string
  bridgeTicket: string
  csp: McpUiResourceCsp
  prefersBorder?: boolean
}

/** A tool call of the app that waits for the person (`428 approval_required`): which tool, with what. */
export interface AppToolApproval {
  name: string
  title?: string
  description: string
  /** The server marks it `destructiveHint: true`. */
  destructive?: boolean
  arguments: Record<string, unknown>
}

/** The person's word on an app's tool call: this call, every call of that tool while the app is open, or no. */
export type AppToolDecision = 'once' | 'app' | 'deny'

export interface AppBridgeHandlers {
  /** The app is initialized: time to send it the tool's input (and result). */
  initialized(): void
  resized(height: number): void
  message(text: string): boolean
  appContext(text: string | undefined): void
  /** Resolves true once the user has confirmed opening the link. */
  confirmLink(url: string): Promise<boolean>
  /** Ask the person about a tool call of the app that needs their approval; `signal` (the app gave up the call) takes the question back as a Deny. */
  approveTool(call: AppToolApproval, signal: AbortSignal): Promise<AppToolDecision>
  log(level: string, message: string): void
}

/**
 * Connect the official `AppBridge` to an app's iframe over `postMessage`. The transport takes
 * messages from that iframe's window only (it checks `event.source`); everything the app asks
 * of the chat goes through `handlers`, its tool calls to `/api/mcp-apps/tool-call` with the
 * bridge ticket (so to its own server only). Loaded on demand: the chat page carries none of
 * this until a card shows an app.
 */
export async function connectAppBridge({
  frame,
  opened,
  hostContext,
  handlers,
}: {
  frame: Window
  opened: OpenedApp
  hostContext: McpUiHostContext
  handlers: AppBridgeHandlers
}): Promise<AppBridge> {
  // The bridge parses with Zod: without compiling parsers, which the page's CSP forbids (zod-without-eval.ts).
  await import('@/lib/plugins/zod-without-eval')
  const { AppBridge, PostMessageTransport } = await import('@modelcontextprotocol/ext-apps/app-bridge')
  const bridge = new AppBridge(
    null,
    { name: 'elicit-chat', version: '0.1.0' },
    {
      openLinks: {},
      serverTools: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      sandbox: { csp: opened.csp },
    },
    { hostContext },
  )
  bridge.oninitialized = () => handlers.initialized()
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) handlers.resized(Math.min(Math.max(Math.ceil(height), 0), MAX_APP_HEIGHT))
  })
  bridge.addEventListener('loggingmessage', ({ level, data }) => handlers.log(level, typeof data === 'string' ? data : JSON.stringify(data)))
  /** Tools the person allowed for as long as this app is open. */
  const allowed = new Set<string>()
  bridge.oncalltool = async (params, extra) => {
    const args = params.arguments ?? {}
    const call = (approved: boolean) =>
      fetch('/api/mcp-apps/tool-call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bridgeTicket: opened.bridgeTicket, name: params.name, arguments: args, ...(approved ? { approved } : {}) }),
        credentials: 'same-origin',
        signal: extra.mcpReq.signal,
      })
    let response = await call(allowed.has(params.name))
    let body = (await response.json().catch(() => undefined)) as CallToolResult | AppRouteError | undefined
    const approval = response.status === 428 ? (body as AppRouteError | undefined)?.error?.tool : undefined
    if (approval) {
      // Only the chat page asks, in the app's card: the app itself never sees or sends `approved`.
      const decision = await handlers.approveTool({ ...approval, name: params.name, arguments: args }, extra.mcpReq.signal)
      if (decision === 'deny') return { content: [{ type: 'text', text: `The person denied this call: ${params.name} was not run.` }], isError: true }
      if (decision === 'app') allowed.add(params.name)
      response = await call(true)
      body = (await response.json().catch(() => undefined)) as CallToolResult | AppRouteError | undefined
    }
    if (!response.ok) throw new Error((body as AppRouteError | undefined)?.error?.message ?? `The tool call failed (${response.status}).`)
    return body as CallToolResult
  }
  bridge.onmessage = async ({ content }) => {
    const text = textOf(content)
    return text && handlers.message(text) ? {} : { isError: true }
  }
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    const text = [textOf(content ?? []), structuredContent ? JSON.stringify(structuredContent) : ''].filter(Boolean).join('\n')
    if (text.length > MAX_APP_CONTEXT_CHARS) throw new Error(`Model context is limited to ${MAX_APP_CONTEXT_CHARS} characters; this was ${text.length}.`)
    handlers.appContext(text || undefined)
    return {}
  }
  bridge.onopenlink = openLinkAfterAsking(handlers.confirmLink)
  await bridge.connect(new PostMessageTransport(frame, frame))
  return bridge
}

/** An MCP Apps route's refusal; `tool` comes with `428 approval_required`. */
interface AppRouteError {
  error?: { message?: string; tool?: Omit<AppToolApproval, 'arguments'> }
}

function textOf(content: ReadonlyArray<{ type: string; text?: unknown }>): string {
  return content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n')
    .trim()
}

/**
 * An app's `ui/open-link`: an http(s) URL only, opened in a new tab once the person said yes
 * (`confirmLink`); anything else, or a no, is an error result for the app.
 */
export function openLinkAfterAsking(confirmLink: (url: string) => Promise<boolean>) {
  return async ({ url }: { url: string }): Promise<{ isError?: boolean }> => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return { isError: true }
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { isError: true }
    if (!(await confirmLink(parsed.href))) return { isError: true }
    window.open(parsed.href, '_blank', 'noopener,noreferrer')
    return {}
  }
}
