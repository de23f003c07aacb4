import { useState, type FormEvent } from 'react'
import type { ToolListing } from '../use-tools'

type Server = ToolListing['servers'][number]

/** What the connect routes refused with, said for the person. */
async function refusal(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined
  return body?.error?.message ?? `The chat answered ${response.status}.`
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

/** Start connecting to `server`: the chat's Connect, then the authorization server's sign-in, then back to this page. */
export async function startConnect(server: string): Promise<void> {
  const response = await postJson('/api/mcp-oauth/connect', { server, returnTo: `${window.location.pathname}${window.location.search}` })
  if (!response.ok) throw new Error(await refusal(response))
  const { authorizationUrl } = (await response.json()) as { authorizationUrl: string }
  window.location.assign(authorizationUrl)
}

/**
 * One server that asks each person to connect: **Connect** (its authorization server's sign-in,
 * then back to this chat), or a form for the values its entry asks each person for; once
 * connected, **Disconnect**. Nothing of the person's credentials ever comes to the page.
 */
export function ServerConnect({ server, onChanged }: { server: Server; onChanged?: () => void }) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const connected = server.status !== 'needs_connect'
  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setProblem(undefined)
    try {
      await work()
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }
  const connect = () => run(() => startConnect(server.name))
  const disconnect = () =>
    run(async () => {
      const response = await postJson('/api/mcp-oauth/disconnect', { server: server.name })
      if (!response.ok) throw new Error(await refusal(response))
      onChanged?.()
    })
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(event.currentTarget).entries())
    void run(async () => {
      const response = await postJson('/api/mcp-oauth/variables', { server: server.name, values })
      if (!response.ok) throw new Error(await refusal(response))
      onChanged?.()
    })
  }
  const button = 'rounded-lg border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-100'
  return (
    <li className="space-y-1" data-testid="server-connect" data-server={server.name}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 break-words">
          MCP server <strong>{server.name}</strong> {connected ? 'is connected for you.' : 'needs you to connect; its tools are unavailable until you do.'}
        </span>
        {connected ? (
          <button type="button" className={button} disabled={busy} onClick={() => void disconnect()}>
            Disconnect
          </button>
        ) : server.connect?.kind === 'oauth' ? (
          <button type="button" className={button} disabled={busy} onClick={() => void connect()}>
            Connect
          </button>
        ) : null}
      </div>
      {!connected && server.connect?.kind === 'variables' ? (
        <form className="flex flex-wrap items-end gap-2" onSubmit={save} aria-label={`Connect ${server.name}`}>
          {Object.entries(server.connect.variables).map(([name, variable]) => (
            <label key={name} className="flex flex-col text-xs">
              <span>{variable.title}</span>
              <input name={name} type="password" required autoComplete="off" className="rounded-md border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900" />
            </label>
          ))}
          <button type="submit" className={button} disabled={busy}>
            Save
          </button>
        </form>
      ) : null}
      {problem ? (
        <p role="alert" className="text-amber-800 dark:text-amber-200">
          {problem}
        </p>
      ) : null}
    </li>
  )
}
