import { SparkIcon } from './icons'
import { Markdown } from './Markdown'

export function AssistantMessage({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <article aria-label="Assistant" aria-busy={streaming} data-testid="assistant-message" className="flex gap-3">
      <AssistantAvatar />
      <div className="min-w-0 flex-1 pt-0.5 text-[15px] leading-relaxed text-zinc-800 dark:text-zinc-200">
        <Markdown text={text} trailing={streaming ? <StreamingCursor /> : undefined} />
      </div>
    </article>
  )
}

export function AssistantAvatar() {
  return (
    <span
      aria-hidden="true"
      className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-gradient-to-br from-sky-500 to-indigo-600 text-white shadow-sm"
    >
      <SparkIcon className="h-4 w-4" />
    </span>
  )
}

function StreamingCursor() {
  return (
    <span
      aria-hidden="true"
      data-testid="streaming-cursor"
      className="ml-0.5 inline-block h-[1.1em] w-[0.5em] translate-y-[0.2em] animate-pulse rounded-sm bg-zinc-400 dark:bg-zinc-500"
    />
  )
}

/** Shown while a turn runs and nothing has streamed yet. */
export function ThinkingIndicator() {
  return (
    <div className="flex gap-3" role="status" aria-label="Assistant is thinking">
      <AssistantAvatar />
      <span className="flex items-center gap-1 pt-2" aria-hidden="true">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="h-1.5 w-1.5 animate-bounce rounded-full bg-zinc-400 dark:bg-zinc-500"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
    </div>
  )
}
