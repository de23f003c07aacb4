'use client'

import { useEffect, useRef } from 'react'
import { ToolApproval } from '../mcp/ToolApproval'
import type { AppToolApproval as Call, AppToolDecision } from './app-bridge-session'

/** A tool call an MCP App asks for, waiting for the person's word. */
export interface PendingToolCall {
  call: Call
  decide(decision: AppToolDecision): void
}

/**
 * The approval of a tool call an app makes, under the app in its card: the same card as a call
 * the model makes (server, tool, what it does, the arguments), asked for the same tools (the
 * server's `approve` policy). Allow once, Allow while this app is open, or Deny.
 */
export function AppToolApproval({ server, pending }: { server: string; pending: PendingToolCall }) {
  const { call, decide } = pending
  const panel = useRef<HTMLDivElement>(null)
  // The person acted inside the app, above: bring the question to them, its safe choice (Deny) first.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' })
    panel.current?.querySelector('button')?.focus({ preventScroll: true })
  }, [pending])
  return (
    <div ref={panel} className="mt-2">
      <ToolApproval
        question={{
          server,
          tool: call.name,
          ...(call.title ? { title: call.title } : {}),
          description: call.description,
          arguments: call.arguments,
          ...(call.destructive ? { destructive: true } : {}),
        }}
        asker="Asked by its app"
        broaderScope="Allow while this app is open"
        disabled={false}
        onRespond={(answer) => decide(answer.action !== 'accept' ? 'deny' : answer.content.scope === 'chat' ? 'app' : 'once')}
      />
    </div>
  )
}
