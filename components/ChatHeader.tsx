import { PlusIcon, SparkIcon } from './icons'

export const APP_NAME = 'Elicit Chat'

export function ChatHeader({ onNewChat }: { onNewChat: () => void }) {
  return (
    <header className="shrink-0 border-b border-zinc-200/80 bg-white/80 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/80">
      <div className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-3 py-2.5 sm:px-4">
        <div className="flex items-center gap-2">
          <span className="grid h-7 w-7 place-items-center rounded-lg bg-gradient-to-br from-sky-500 to-indigo-600 text-white">
            <SparkIcon className="h-4 w-4" />
          </span>
          <h1 className="text-base font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{APP_NAME}</h1>
        </div>
        <button
          type="button"
          onClick={onNewChat}
          className="inline-flex items-center gap-1.5 rounded-lg border border-zinc-200 px-3 py-1.5 text-sm font-medium text-zinc-700 transition hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          <PlusIcon className="h-4 w-4" />
          New chat
        </button>
      </div>
    </header>
  )
}
