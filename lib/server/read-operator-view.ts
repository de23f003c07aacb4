import { createHash } from 'node:crypto'
import type { AccountUsage } from '../budgets'
import type { WaitingCall } from '../engine'
import type { McpServerInfo } from '../mcp/client'
import type { OperatorView } from '../protocol/operator-view'
import type { RefusalTally } from '../telemetry'

const HOUR_MS = 60 * 60 * 1000

/** An account's id as the operator sees it: sha256, 16 hex digits (the same account, the same value; the id cannot be read back). */
export function accountHash(clientId: string): string {
  return createHash('sha256').update(clientId).digest('hex').slice(0, 16)
}

/** Where the operator's view reads: the same sources the metrics read, nothing kept for it alone. */
export interface OperatorSources {
  instance: string
  /** The calls waiting, from the sessions' store (`elicit_tool_sessions_waiting` counts the same list). */
  listWaiting(): Promise<WaitingCall[]>
  /** The external MCP servers, as the chat's server list has them. */
  servers(): McpServerInfo[]
  /** This instance's refusals (`elicit_refusals_total` reads the same tally). */
  refusals: RefusalTally
  /** Each account's model use of today, when a budget is configured (nothing is counted otherwise; `/api/admin/usage` reads the same). */
  usage?: () => Promise<{ day: string; resetsAt: string; accounts: AccountUsage[] }>
  now?: () => number
}

/** The operator's view now (`GET /api/admin/operator`, the `/admin` page): oldest waiting call first. */
export async function readOperatorView(sources: OperatorSources): Promise<OperatorView> {
  const at = (sources.now ?? Date.now)()
  const [waiting, usage] = await Promise.all([sources.listWaiting(), sources.usage?.()])
  const iso = (ms: number) => new Date(ms).toISOString()
  return {
    instance: sources.instance,
    at: iso(at),
    waiting: [...waiting]
      .sort((a, b) => a.since - b.since)
      .map((call) => ({
        account: accountHash(call.clientId),
        callId: call.callId,
        tool: call.toolName,
        question: call.key,
        since: iso(call.since),
        expiresAt: iso(call.expiresAt),
        instance: call.instance ?? null,
        hot: call.hot,
      })),
    servers: sources.servers().map(({ name, status, error }) => ({ name, status, ...(error ? { error } : {}) })),
    refusals: { since: iso(at - HOUR_MS), counts: sources.refusals.lastHour(at) },
    usage: usage
      ? { counted: true, day: usage.day, resetsAt: usage.resetsAt, accounts: usage.accounts.map(({ clientId, tokens, limit }) => ({ account: accountHash(clientId), tokens, limit })) }
      : { counted: false, day: iso(at).slice(0, 10), resetsAt: null, accounts: [] },
  }
}
