import { useId, useState, type ComponentType } from 'react'
import type { ElicitationEntry } from '@/lib/client'
import type { RenderedComponent } from '@/lib/plugins'
import { isQuestionRender } from '@/lib/plugins/question-handler'
import { decodeModelContext } from '@/lib/tools/model-context'
import { answerLine } from './answer-line'
import { ErrorBoundary } from './ErrorBoundary'
import { AlertIcon, CheckIcon, ChevronIcon, MinusIcon } from './icons'
import { LIVE_RENDER } from './use-focus-follows'

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
  return (
    <div className="space-y-2 px-3 pb-3 sm:px-4" data-testid="elicitation" data-elicit-key={elicitation.key} data-status={elicitation.status}>
      {waiting ? (
        <>
          {elicitation.rejection ? (
            <p role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <span>That answer was not accepted: {elicitation.rejection.message}</span>
            </p>
          ) : null}
          <Renders elicitation={elicitation} renders={renders} live />
        </>
      ) : folds ? (
        <Folded elicitation={elicitation} renders={renders} />
      ) : (
        <Renders elicitation={elicitation} renders={renders} live={false} />
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

const OUTCOME_ICON = {
  answered: <CheckIcon className="h-4 w-4 text-emerald-700 dark:text-emerald-400" />,
  declined: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
  cancelled: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
  unanswered: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
}

/** A question no longer open: its answer in one line, a button that shows the question again as it was. */
function Folded({ elicitation, renders }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[] }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const line = answerLine(elicitation)
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid="answer-line"
        className="flex w-full items-start gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-left text-[13px] transition sm:text-sm hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700/70 dark:bg-zinc-800/40 dark:hover:bg-zinc-800"
      >
        <span className="mt-0.5 shrink-0">{OUTCOME_ICON[line.outcome]}</span>
        <span className="min-w-0 flex-1 break-words">
          {line.parts.map((part, index) => (
            <span key={index} className="mr-3 inline-block last:mr-0">
              {part.title ? <span className="text-zinc-600 dark:text-zinc-400">{part.title} </span> : null}
              <span className="font-semibold text-zinc-900 dark:text-zinc-100">{part.value}</span>
            </span>
          ))}
        </span>
        <ChevronIcon className={`mt-0.5 h-4 w-4 shrink-0 text-zinc-600 transition-transform dark:text-zinc-400 ${open ? '-rotate-90' : 'rotate-90'}`} />
      </button>
      {open ? (
        <div id={id} className="space-y-2">
          <Renders elicitation={elicitation} renders={renders} live={false} />
        </div>
      ) : null}
    </>
  )
}

/** The components the plugin's handler rendered for the question (its message, while none is here yet). */
function Renders({ elicitation, renders, live: open }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[]; live: boolean }) {
  if (renders.length === 0) {
    return (
      <p className="whitespace-pre-wrap rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        {decodeModelContext({ message: elicitation.message, schema: elicitation.schema }).message}
      </p>
    )
  }
  return renders.map((rendered) => {
    // The handler chose the component and its props; the chat adds the answer wiring.
    const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
    const live = open && rendered.response === undefined
    return (
      <div key={rendered.index} {...(live ? { [LIVE_RENDER]: '' } : {})}>
        <ErrorBoundary fallback={<p className="text-sm text-red-700 dark:text-red-300">This part of the tool’s interface could not be shown.</p>}>
          <Rendered {...rendered.props} onRespond={rendered.respond} disabled={!live} response={rendered.response?.value} />
        </ErrorBoundary>
      </div>
    )
  })
}
