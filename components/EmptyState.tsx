import { SparkIcon } from './icons'

/** Another MCP server's tools, offered on the empty screen as the start of a slash command. */
export interface ServerSuggestion {
  server: string
  /** What the chip puts in the message box: `/` and what the server's tool names share. */
  command: string
}

const chip =
  'rounded-xl border border-zinc-200 bg-white px-4 py-2.5 text-sm font-medium text-zinc-800 shadow-sm transition enabled:hover:border-sky-400 enabled:hover:bg-sky-50 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:enabled:hover:border-sky-500 dark:enabled:hover:bg-sky-500/10'

/**
 * The empty chat: what each plugin suggests saying (sent as is), "What can you do?", and one
 * chip per external server whose tools are up, which starts a slash command for them.
 */
export function EmptyState({
  suggestions,
  servers = [],
  onSuggestion,
  onCommand,
  disabled,
}: {
  suggestions: readonly string[]
  servers?: readonly ServerSuggestion[]
  onSuggestion: (text: string) => void
  onCommand: (command: string) => void
  disabled: boolean
}) {
  return (
    <div data-empty-state className="flex flex-1 flex-col items-center justify-center px-4 py-12 text-center">
      <span className="grid h-12 w-12 place-items-center rounded-2xl bg-gradient-to-br from-sky-500 to-indigo-600 text-white shadow-lg shadow-sky-500/20">
        <SparkIcon className="h-6 w-6" />
      </span>
      <h2 className="mt-4 text-xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">What can I help with?</h2>
      <p className="mt-2 max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
        Tools here can stop half-way to ask you something — pick a flight, make a move, choose a card — and then carry on.
      </p>
      <div className="mt-6 grid w-full max-w-sm gap-2 sm:max-w-lg sm:grid-cols-2">
        {[...suggestions, 'What can you do?'].map((suggestion) => (
          <button key={suggestion} type="button" disabled={disabled} onClick={() => onSuggestion(suggestion)} className={chip}>
            {suggestion}
          </button>
        ))}
        {servers.map(({ server, command }) => (
          <button key={server} type="button" disabled={disabled} onClick={() => onCommand(command)} className={chip}>
            Tools of <span className="font-mono">{server}</span>
          </button>
        ))}
      </div>
    </div>
  )
}
