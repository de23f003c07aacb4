import { useCallback, useEffect, useState } from 'react'
import { serverStatusKey } from '@/lib/mcp/client/server-status'

export interface ToolListing {
  /** `appOnly`: only its MCP App may call it, so it is no slash command. */
  tools: Array<{ name: string; description: string; source: string; appOnly?: boolean }>
  /**
   * `needs_connect`: the server asks each person to connect (OAuth, or values of their own);
   * `connect` says how, and stays once this person has connected (so they can disconnect).
   */
  servers: Array<{
    name: string
    status: 'starting' | 'ready' | 'failed' | 'disabled' | 'needs_connect'
    error?: string
    connect?: { kind: 'oauth' } | { kind: 'variables'; variables: Record<string, { title: string; description?: string }> }
  }>
  /** Read the listing again now (after connecting or disconnecting a server). */
  reload?: () => void
}

const EMPTY: ToolListing = { tools: [], servers: [] }

/**
 * `GET /api/tools`: the tools the composer suggests after `/`, and the external servers'
 * status. Read when the chat opens and again whenever `refreshKey` changes (a turn ended, the
 * user started a command): servers come up and go down while the page is open. While one is
 * starting (or down, to be started again), the next change is waited for as it happens
 * (`?after=`, answered when a status changes or after 25 s), so a server that becomes ready is
 * shown as ready without a reload.
 */
export function useTools(refreshKey: unknown): ToolListing {
  const [listing, setListing] = useState<ToolListing>(EMPTY)
  const [waits, setWaits] = useState(0)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((count) => count + 1), [])
  /** The listing that came, if one did. */
  const load = useCallback(async (query: string, signal: AbortSignal): Promise<ToolListing | undefined> => {
    try {
      const response = await fetch(`/api/tools${query}`, { signal, cache: 'no-store' })
      if (!response.ok) return undefined
      const next = (await response.json()) as ToolListing
      setListing(next)
      return next
    } catch {
      // Offline or stopped: the last listing stays (and nothing more is asked until the next turn).
      return undefined
    }
  }, [])
  useEffect(() => {
    const abort = new AbortController()
    void load('', abort.signal)
    return () => abort.abort()
  }, [load, refreshKey, reloads])

  const statuses = serverStatusKey(listing.servers)
  const settling = listing.servers.some((server) => server.status === 'starting' || server.status === 'failed')
  useEffect(() => {
    if (!settling) return
    const abort = new AbortController()
    void load(`?after=${encodeURIComponent(statuses)}`, abort.signal).then((next) => {
      // Unchanged after the whole wait: wait again. One request is held open at a time, and none
      // is made while the app cannot be reached; a change re-runs this through `statuses`.
      if (next && !abort.signal.aborted && serverStatusKey(next.servers) === statuses) setWaits((count) => count + 1)
    })
    return () => abort.abort()
  }, [load, statuses, settling, waits])
  return { ...listing, reload }
}
