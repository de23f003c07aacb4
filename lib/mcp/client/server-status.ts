import type { McpClients, McpServerInfo } from './use-mcp-clients'

/** How long `GET /api/tools?after=…` holds its answer at most, waiting for a server's status to change. */
export const STATUS_WAIT_MS = 25_000

/**
 * The servers' statuses in a few characters (`everything:ready,files:starting`): what the
 * browser last saw, sent back as `?after=` to wait for a change. Pure: both halves use it.
 */
export function serverStatusKey(servers: ReadonlyArray<Pick<McpServerInfo, 'name' | 'status'>>): string {
  return servers.map(({ name, status }) => `${name}:${status}`).join(',')
}

/**
 * Wait while the servers' statuses are still those `after` names (a server still starting), so
 * the chat hears when it is ready, or failed, as it happens, without asking again and again.
 * Resolves at the first change, after `maxWaitMs`, or when `signal` aborts (the page went away).
 */
export async function waitForStatusChange({
  clients,
  after,
  signal,
  maxWaitMs = STATUS_WAIT_MS,
  current = clients.servers(),
}: {
  clients: Pick<McpClients, 'servers' | 'changed'>
  after: string
  signal: AbortSignal
  maxWaitMs?: number
  /** The statuses as this person sees them (`serversFor`); everyone's by default. */
  current?: ReadonlyArray<Pick<McpServerInfo, 'name' | 'status'>>
}): Promise<void> {
  if (serverStatusKey(current) !== after || signal.aborted) return
  const timeout = AbortSignal.timeout(maxWaitMs)
  await clients.changed(AbortSignal.any([signal, timeout]))
}
