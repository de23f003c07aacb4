import { SparkIcon } from './icons'

const SUGGESTIONS = ['Book a flight from NYC to LAX', 'Let’s play tic-tac-toe', 'Pick a card and help me choose', 'What can you do?']

export function EmptyState({ onSuggestion, disabled }: { onSuggestion: (text: string) => void; disabled: boolean }) {
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
        {SUGGESTIONS.map((suggestion) => (
          <button
            key={suggestion}
            type="button"
            disabled={disabled}
            onClick={() => onSuggestion(suggestion)}
            className="rounded-xl border border-zinc-200 bg-white px-4 py-2.5 text-sm font-medium text-zinc-800 shadow-sm transition enabled:hover:border-sky-400 enabled:hover:bg-sky-50 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:enabled:hover:border-sky-500 dark:enabled:hover:bg-sky-500/10"
          >
            {suggestion}
          </button>
        ))}
      </div>
    </div>
  )
}
