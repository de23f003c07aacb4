import type { ToolListing } from '../use-tools'
import { AlertIcon } from '../icons'
import { ServerConnect } from './ServerConnect'

/**
 * The external MCP servers that are not up, and why: down ones (their tools are missing until
 * they are back) and ones still starting (their tools come when they are ready).
 */
export function ServerNotice({ servers, onChanged }: { servers: ToolListing['servers']; onChanged?: () => void }) {
  // A server that failed and is being started again is still down until it is ready; one
  // starting for the first time has not failed: it is starting.
  const down = servers.filter((server) => server.status === 'failed' || (server.status === 'starting' && server.error))
  const starting = servers.filter((server) => server.status === 'starting' && !server.error)
  // Servers each person connects to on their own: Connect (or Disconnect, once connected).
  const personal = servers.filter((server) => server.connect && (server.status === 'needs_connect' || server.status === 'ready'))
  if (down.length === 0 && starting.length === 0 && personal.length === 0) return null
  return (
    <div className="mx-auto w-full max-w-3xl space-y-2 px-3 pb-2 sm:px-4">
      {personal.length > 0 ? (
        <div role="status" aria-label="MCP servers to connect" className="rounded-xl border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
          <ul className="space-y-2">
            {personal.map((server) => (
              <ServerConnect key={server.name} server={server} onChanged={onChanged} />
            ))}
          </ul>
        </div>
      ) : null}
      {starting.length > 0 ? (
        <div role="status" aria-label="MCP servers starting" className="rounded-xl border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
          <ul className="space-y-1">
            {starting.map((server) => (
              <li key={server.name} className="flex items-start gap-2" data-testid="server-starting">
                <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 animate-pulse rounded-full bg-sky-500" />
                <span className="min-w-0 break-words">
                  MCP server <strong>{server.name}</strong> is starting; its tools will be available when it is ready.
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {down.length > 0 ? (
        <div role="status" aria-label="MCP servers down" className="rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-100">
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
      ) : null}
    </div>
  )
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text
}
