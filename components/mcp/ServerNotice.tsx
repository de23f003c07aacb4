import type { ToolListing } from '../use-tools'
import { AlertIcon } from '../icons'

/** The external MCP servers that are down, and why: their tools are missing until they are back. */
export function ServerNotice({ servers }: { servers: ToolListing['servers'] }) {
  // A server that failed and is being restarted is still down until it is ready again.
  const down = servers.filter((server) => server.status === 'failed' || (server.status === 'starting' && server.error))
  if (down.length === 0) return null
  return (
    <div className="mx-auto w-full max-w-3xl px-3 sm:px-4">
      <div role="status" aria-label="MCP servers down" className="mb-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-100">
        <ul className="space-y-1">
          {down.map((server) => (
            <li key={server.name} className="flex items-start gap-2" data-testid="server-down">
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <span className="min-w-0 break-words">
                MCP server <strong>{server.name}</strong> is down; its tools are unavailable. {server.error ? <span className="text-amber-800 dark:text-amber-200">({clip(server.error)})</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text
}
