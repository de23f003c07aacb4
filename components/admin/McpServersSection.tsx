import type { McpServerView } from '@/lib/protocol'
import { CELL, EMPTY, HEAD_CELL, HEADING, SECTION, TABLE } from './panel-styles'

/**
 * The operator's view of the external MCP servers (mcp.json): each one's state as the chat's
 * server list has it, and why it failed. A server started again after a failure keeps that
 * failure's error while it starts: shown as its last failure, not as its state now.
 */
export function McpServersSection({ servers }: { servers: readonly McpServerView[] }) {
  return (
    <section aria-labelledby="servers-heading" className={SECTION}>
      <h2 id="servers-heading" className={HEADING}>
        External MCP servers
      </h2>
      {servers.length === 0 ? (
        <p className={EMPTY}>None is configured (mcp.json).</p>
      ) : (
        <table className={TABLE} aria-labelledby="servers-heading">
          <thead>
            <tr>
              <th scope="col" className={HEAD_CELL}>Server</th>
              <th scope="col" className={HEAD_CELL}>State</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((server) => (
              <tr key={server.name}>
                {/* Room for a short name whole beside a long error on a phone; a longer one breaks anywhere. */}
                <td className={`${CELL} min-w-24 break-all font-mono`}>{server.name}</td>
                <td className={`${CELL} break-words`}>
                  {server.status}
                  {server.error ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{server.status === 'failed' ? server.error : `Last failure: ${server.error}`}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
