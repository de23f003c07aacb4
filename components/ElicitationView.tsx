import type { ComponentType } from 'react'
import type { ElicitationEntry } from '@/lib/client'
import type { RenderedComponent } from '@/lib/plugins'
import { decodeModelContext } from '@/lib/tools/model-context'
import { ErrorBoundary } from './ErrorBoundary'
import { AlertIcon } from './icons'
import { LIVE_RENDER } from './use-focus-follows'

/** One elicitation inside its tool card: the components its plugin handler rendered. */
export function ElicitationView({ elicitation, renders }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[] }) {
  const waiting = elicitation.status === 'waiting'
  return (
    <div className="space-y-2 px-3 pb-3 sm:px-4" data-testid="elicitation" data-elicit-key={elicitation.key} data-status={elicitation.status}>
      {elicitation.rejection && waiting ? (
        <p role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
          <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
          <span>That answer was not accepted: {elicitation.rejection.message}</span>
        </p>
      ) : null}

      {renders.length === 0 ? (
        <p className="whitespace-pre-wrap rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {decodeModelContext({ message: elicitation.message, schema: elicitation.schema }).message}
        </p>
      ) : (
        renders.map((rendered) => {
          // The handler chose the component and its props; the chat adds the answer wiring.
          const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
          const live = rendered.response === undefined && waiting
          return (
            <div key={rendered.index} {...(live ? { [LIVE_RENDER]: '' } : {})}>
              <ErrorBoundary
                fallback={<p className="text-sm text-red-700 dark:text-red-300">This part of the tool’s interface could not be shown.</p>}
              >
                <Rendered
                  {...rendered.props}
                  onRespond={rendered.respond}
                  disabled={!live}
                  response={rendered.response?.value}
                />
              </ErrorBoundary>
            </div>
          )
        })
      )}

      {elicitation.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {elicitation.error}
        </p>
      ) : null}
      {elicitation.status === 'stopped' && !elicitation.result ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Stopped before an answer was given.</p>
      ) : null}
    </div>
  )
}
