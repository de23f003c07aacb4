import { KEEP_CONNECTIONS_FIELD } from '@/lib/auth/sign-out-form'

/** Who is signed in, as the sidebar shows them (sign-in configured): the only part of the account the browser gets. */
export interface SignedInPerson {
  name: string
  email: string
  /** `mcp.json` has servers each person connects to: signing out asks whether to keep those connections. */
  connectsMcpServers: boolean
}

/** A guest, with sign-in configured and `AUTH_GUESTS=on`: chatting without having signed in. */
export interface Guest {
  guest: true
}

const ACTION = 'shrink-0 rounded-md px-2 py-1 text-sm text-zinc-700 transition hover:bg-zinc-200/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60'

/**
 * The sidebar's foot with sign-in configured: the person's name and address, and Sign out (a form
 * post, so it works before the page's script has loaded) with its one choice, shown when `mcp.json`
 * has servers each person connects to: signing out forgets the person's connections to them (tokens
 * revoked, values forgotten) unless they tick "Keep my MCP servers connected for next time"; for a guest, Sign in (back to `next`,
 * the chat shown), after which the guest's chats are the account's. It takes the place of
 * "Continue on another device": with sign-in, the person signs in there and finds the same chats.
 */
export function AccountPanel({ person, next }: { person: SignedInPerson | Guest; next: string }) {
  if ('guest' in person) {
    return (
      <div className="flex items-center gap-2 rounded-lg px-3 py-2" aria-label="Your account" role="group">
        <p className="min-w-0 flex-1 truncate text-sm text-zinc-700 dark:text-zinc-300">Chatting as a guest</p>
        <a href={`/auth/sign-in?next=${encodeURIComponent(next)}`} className={`${ACTION} font-medium`}>
          Sign in
        </a>
      </div>
    )
  }
  return (
    <div className="rounded-lg px-3 py-2" aria-label="Your account" role="group">
      <form action="/auth/sign-out" method="post" aria-label="Sign out">
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">{person.name}</p>
            <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{person.email}</p>
          </div>
          <button type="submit" className={ACTION}>
            Sign out
          </button>
        </div>
        {person.connectsMcpServers && (
          <label className="mt-1 flex items-start gap-2 text-xs text-zinc-600 dark:text-zinc-400">
            <input type="checkbox" name={KEEP_CONNECTIONS_FIELD} value="on" className="mt-0.5" />
            <span>Keep my MCP servers connected for next time (otherwise signing out disconnects them)</span>
          </label>
        )}
      </form>
    </div>
  )
}
