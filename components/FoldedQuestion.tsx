import { useId, useState } from 'react'
import type { ElicitationEntry } from '@/lib/client'
import type { RenderedComponent } from '@/lib/plugins'
import { answerLine } from './answer-line'
import { CheckIcon, ChevronIcon, MinusIcon } from './icons'
import { QuestionRenders } from './QuestionRenders'

const OUTCOME_ICON = {
  answered: <CheckIcon className="h-4 w-4 text-emerald-700 dark:text-emerald-400" />,
  declined: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
  cancelled: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
  unanswered: <MinusIcon className="h-4 w-4 text-zinc-600 dark:text-zinc-400" />,
}

/**
 * A question no longer open: its answer in one line, what was asked and what was answered, and
 * a disclosure button that shows the question again as it was (its components, answered).
 */
export function FoldedQuestion({ elicitation, renders }: { elicitation: ElicitationEntry; renders: readonly RenderedComponent[] }) {
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
        className="flex w-full items-start gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-left text-[13px] transition hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700/70 dark:bg-zinc-800/40 dark:hover:bg-zinc-800 sm:text-sm"
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
          <QuestionRenders elicitation={elicitation} renders={renders} open={false} />
        </div>
      ) : null}
    </>
  )
}
