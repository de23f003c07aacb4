import type { ComponentType } from 'react'
import type { ElicitationEntry } from '@/lib/client'
import type { RenderedComponent } from '@/lib/plugins'
import { ErrorBoundary } from './ErrorBoundary'
import { LIVE_RENDER } from './use-focus-follows'

/**
 * The components a question's plugin handler rendered, with the chat's answer wiring (its
 * message, while none is here yet). `open`: the question waits, so a render not yet answered
 * is live — it takes answers, and the focus (`LIVE_RENDER`).
 */
export function QuestionRenders({ elicitation, renders, open }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[]; open: boolean }) {
  if (renders.length === 0) {
    return (
      <p className="whitespace-pre-wrap rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        {elicitation.question.message}
      </p>
    )
  }
  return renders.map((rendered) => {
    // The handler chose the component and its props; the chat adds the answer wiring.
    const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
    const live = open && !rendered.answered
    return (
      <div key={rendered.index} {...(live ? { [LIVE_RENDER]: '' } : {})}>
        <ErrorBoundary fallback={<p className="text-sm text-red-700 dark:text-red-300">This part of the tool’s interface could not be shown.</p>}>
          <Rendered {...rendered.props} onRespond={rendered.respond} disabled={!live} response={rendered.response} />
        </ErrorBoundary>
      </div>
    )
  })
}
