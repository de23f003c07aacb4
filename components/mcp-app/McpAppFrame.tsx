'use client'

import type { CallToolResult } from '@modelcontextprotocol/client'
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import { useEffect, useRef, useState } from 'react'
import { AlertIcon } from '../icons'
import { AppFrame, followHostContext, openAppFrame, useAppFrameChrome } from './AppFrame'
import { connectAppBridge, type AppToolDecision, type OpenedApp } from './app-bridge-session'
import { AppToolApproval, type PendingToolCall } from './AppToolApproval'
import { useMcpAppHost } from './mcp-app-host-context'

export interface McpAppFrameProps {
  /** The `mcp.json` key of the tool's server. */
  server: string
  /** The tool's own name on that server. */
  tool: string
  callId: string
  arguments: Record<string, unknown>
  /** The tool's result, once it has one. */
  result?: CallToolResult
  /** Why the call ended without a result (stopped, interrupted), if it did. */
  cancelled?: string
}

type Opening = { status: 'opening' } | { status: 'open'; app: OpenedApp } | { status: 'failed'; message: string }

/**
 * A tool's MCP App inside its card, in the chat's one app frame (`AppFrame`: sandboxed into an
 * opaque origin, talking to the chat only through the `AppBridge` over `postMessage`).
 *
 * Why not the double iframe ("sandbox proxy") of the MCP Apps docs: it exists to give the app
 * an origin other than the host's, by loading a proxy from a second origin. We have one origin,
 * and an opaque one is stronger still (no storage shared with anybody, not even other apps),
 * delivered by an HTTP header the app cannot remove. A `srcdoc` iframe would inherit the chat's
 * nonce-based CSP and block the app's inline scripts; a route of our own gives it its own
 * policy, built from its `_meta.ui.csp`.
 */
export function McpAppFrame({ server, tool, callId, arguments: args, result, cancelled }: McpAppFrameProps) {
  const host = useMcpAppHost()
  const [opening, setOpening] = useState<Opening>({ status: 'opening' })
  const chrome = useAppFrameChrome()
  /** The app's tool calls waiting for the person, first asked first. */
  const [toolCalls, setToolCalls] = useState<PendingToolCall[]>([])
  const [initialized, setInitialized] = useState(false)
  const frame = useRef<HTMLIFrameElement>(null)
  const bridge = useRef<AppBridge | undefined>(undefined)
  const latest = useRef({ host, args, result })
  latest.current = { host, args, result }
  const source = `${server}__${tool} (${callId})`

  useEffect(() => {
    const abort = new AbortController()
    setOpening({ status: 'opening' })
    openAppFrame<OpenedApp>('/api/mcp-apps/frames', { server, tool }, abort.signal)
      .then((answer) => {
        if ('opened' in answer) setOpening({ status: 'open', app: answer.opened })
        else setOpening({ status: 'failed', message: answer.refused ?? `The server answered ${answer.status}.` })
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setOpening({ status: 'failed', message: error instanceof Error ? error.message : String(error) })
      })
    return () => abort.abort()
  }, [server, tool])

  const app = opening.status === 'open' ? opening.app : undefined
  useEffect(() => {
    const element = frame.current
    const window = element?.contentWindow
    if (!app || !element || !window) return
    let closed = false
    let tornDown = false
    setInitialized(false)
    const teardown = async () => {
      if (tornDown || !bridge.current) return
      tornDown = true
      await bridge.current.teardownResource({})
    }
    const page = followHostContext({ setHostContext: (context) => bridge.current?.setHostContext(context), teardown })
    connectAppBridge({
      frame: window,
      opened: app,
      hostContext: page.hostContext,
      handlers: {
        ...chrome.handlers,
        initialized: () => setInitialized(true),
        message: (text) => latest.current.host?.sendMessage(text) ?? false,
        appContext: (text) => latest.current.host?.setAppContext(source, text),
        approveTool: (call, signal) =>
          new Promise<AppToolDecision>((resolve) => {
            const pending: PendingToolCall = {
              call,
              decide(decision) {
                signal.removeEventListener('abort', withdrawn)
                setToolCalls((waiting) => waiting.filter((other) => other !== pending))
                resolve(decision)
              },
            }
            const withdrawn = () => pending.decide('deny')
            if (signal.aborted) return withdrawn()
            signal.addEventListener('abort', withdrawn, { once: true })
            setToolCalls((waiting) => [...waiting, pending])
          }),
      },
    }).then(
      (connected) => {
        if (closed) return void connected.close()
        bridge.current = connected
        // Only now: the bridge listens before the app's first message can arrive.
        element.src = app.src
      },
      (error: unknown) => setOpening({ status: 'failed', message: `The app could not be connected: ${error instanceof Error ? error.message : String(error)}` }),
    )
    return () => {
      closed = true
      page.stop()
      const current = bridge.current
      bridge.current = undefined
      if (!current) return
      // Best effort when the card goes away by itself (the chat tears apps down first on New chat).
      const ending = tornDown ? Promise.resolve() : current.teardownResource({}, { timeout: 1_000 }).then(undefined, () => {})
      void ending.then(() => current.close())
    }
    // The chrome's handlers only set its state: the bridge is connected once per app.
  }, [app, source])

  // Input first, then the result (or the cancellation), each once the app is ready for it.
  const sentInput = useRef(false)
  const sentResult = useRef(false)
  useEffect(() => {
    if (!initialized) {
      sentInput.current = false
      sentResult.current = false
      return
    }
    const current = bridge.current
    if (!current) return
    if (!sentInput.current) {
      sentInput.current = true
      void current.sendToolInput({ arguments: latest.current.args })
    }
    if (result && !sentResult.current) {
      sentResult.current = true
      void current.sendToolResult(result)
    } else if (cancelled && !result && !sentResult.current) {
      sentResult.current = true
      void current.sendToolCancelled({ reason: cancelled })
    }
  }, [initialized, result, cancelled])

  if (opening.status === 'failed') {
    return (
      <p role="alert" data-testid="mcp-app-error" className="mx-3 mb-3 flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200 sm:mx-4">
        <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
        <span>This app cannot be shown. {opening.message}</span>
      </p>
    )
  }
  return (
    <div className="mx-3 mb-3 sm:mx-4" data-testid="mcp-app" data-app-status={initialized ? 'ready' : opening.status}>
      <AppFrame opened={app} frame={frame} title={`App of ${server}__${tool}`} testId="mcp-app-frame" chrome={chrome}>
        {toolCalls[0] ? <AppToolApproval server={server} pending={toolCalls[0]} /> : null}
      </AppFrame>
    </div>
  )
}
