import { lazy, Suspense, useEffect } from 'react'
import type { ElicitationEntry } from '@/lib/client'
import type { RenderedComponent } from '@/lib/plugins'
import { isQuestionRender } from '@/lib/plugins/question-handler'
import { ErrorBoundary } from './ErrorBoundary'
import { AlertIcon } from './icons'
import { QuestionRenders } from './QuestionRenders'

// Only a question already answered needs it: not part of the page's first load, and fetched
// as soon as a question waits, so it is here by the time that question is answered.
const loadFolded = () => import('./FoldedQuestion')
const FoldedQuestion = lazy(() => loadFolded().then((module) => ({ default: module.FoldedQuestion })))

/**
 * One elicitation inside its tool card. While it waits, the components its plugin handler
 * rendered, open. Once answered, stopped or closed, a question its plugin answers with a
 * component (or none could be shown) folds to one line — what was asked and what was answered,
 * in its form's words — with a disclosure to look at it again; so the question waiting is the
 * one open thing in the chat, and nothing greyed out is left behind it. A generator handler's
 * renders stay as they show themselves answered.
 */
export function ElicitationView({ elicitation, renders }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[] }) {
  const waiting = elicitation.status === 'waiting'
  const folds = !waiting && renders.every(isQuestionRender)
  useEffect(() => {
    // Fetched ahead; a fetch that fails is told where the line would be, when it renders.
    if (waiting) loadFolded().catch(() => {})
  }, [waiting])
  return (
    <div className="space-y-2 px-3 pb-3 sm:px-4" data-testid="elicitation" data-elicit-key={elicitation.question.key} data-status={elicitation.status}>
      {waiting ? (
        <>
          {elicitation.rejection ? (
            <p role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <span>That answer was not accepted: {elicitation.rejection.message}</span>
            </p>
          ) : null}
          <QuestionRenders elicitation={elicitation} renders={renders} open />
        </>
      ) : folds ? (
        <ErrorBoundary fallback={<p className="text-sm text-red-700 dark:text-red-300">This answer could not be shown.</p>}>
          {/* The line's height, kept while it loads (after a reload), so nothing below it jumps. */}
          <Suspense fallback={<div aria-hidden="true" className="h-[38px] rounded-lg border border-zinc-200 bg-zinc-50 dark:border-zinc-700/70 dark:bg-zinc-800/40" />}>
            <FoldedQuestion elicitation={elicitation} renders={renders} />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <QuestionRenders elicitation={elicitation} renders={renders} open={false} />
      )}

      {elicitation.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {elicitation.error}
        </p>
      ) : null}
      {elicitation.status === 'stopped' && !elicitation.result && !folds ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Stopped before an answer was given.</p>
      ) : null}
    </div>
  )
}
