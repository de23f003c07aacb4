import { useCallback, useEffect, useState } from 'react'

export interface ToolListing {
  /** `appOnly`: only its MCP App may call it, so it is no slash command. */
  tools: Array<{ name: string; description: string; source: string; appOnly?: boolean }>
  servers: Array<{ name: string; status: 'starting' | 'ready' | 'failed' | 'disabled'; error?: string }>
}

const EMPTY: ToolListing = { tools: [], servers: [] }

/**
 * `GET /api/tools`: the tools the composer suggests after `/`, and the external servers'
 * status. Read when the chat opens and again whenever `refreshKey` changes (a turn ended, the
 * user started a command): servers come up and go down while the page is open.
 */
export function useTools(refreshKey: unknown): ToolListing {
  const [listing, setListing] = useState<ToolListing>(EMPTY)
  const load = useCallback(async (signal: AbortSignal) => {
    try {
      const response = await fetch('/api/tools', { signal, cache: 'no-store' })
      if (response.ok) setListing((await response.json()) as ToolListing)
    } catch {
      // Offline or stopped: the last listing stays.
    }
  }, [])
  useEffect(() => {
    const abort = new AbortController()
    void load(abort.signal)
    return () => abort.abort()
  }, [load, refreshKey])
  return listing
}
