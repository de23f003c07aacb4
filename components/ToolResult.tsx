import type { ComponentType, Ref } from 'react'
import type { ResultViewProps } from '@/lib/plugins'
import { ErrorBoundary } from './ErrorBoundary'
import { JsonView } from './JsonView'

/** A tool's result: its plugin's view when it has one, readable key/values otherwise. */
export function ToolResult({
  result,
  ResultView,
  pending = false,
  ref,
}: {
  ref?: Ref<HTMLDivElement>
  result: { text: string; value?: unknown }
  ResultView?: ComponentType<ResultViewProps<unknown>>
  /** The plugin's view is on its way: keep the space rather than flash the generic view. */
  pending?: boolean
}) {
  const generic =
    result.value === undefined ? (
      <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-lg bg-zinc-50 p-3 font-mono text-xs text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200">
        {result.text}
      </pre>
    ) : (
      <div className="rounded-lg bg-zinc-50 p-3 text-sm dark:bg-zinc-950/60">
        <JsonView value={result.value} />
      </div>
    )
  return (
    // Focusable by the chat only: the focus comes here when the tool it was answering finishes.
    <div ref={ref} tabIndex={-1} className="px-3 pb-3 focus:outline-none sm:px-4" data-testid="tool-result">
      {pending && result.value !== undefined ? (
        <div aria-busy="true" className="h-16 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800/60" />
      ) : ResultView && result.value !== undefined ? (
        <ErrorBoundary fallback={generic}>
          <ResultView result={result.value} />
        </ErrorBoundary>
      ) : (
        generic
      )}
    </div>
  )
}
