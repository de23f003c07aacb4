import { Children, type ReactNode } from 'react'

const TONES = {
  sky: 'bg-sky-600 dark:bg-sky-500',
  violet: 'bg-violet-600 dark:bg-violet-500',
  emerald: 'bg-emerald-600 dark:bg-emerald-500',
  amber: 'bg-amber-600 dark:bg-amber-500',
} as const

/** The first paragraph of a tool's message: what it asks, without the list it also spells out for text-only clients. */
export function promptOf(message: string): string {
  return message.split(/\n\s*\n/)[0]?.trim() ?? ''
}

/**
 * The frame of a plugin's question: a labelled region with an icon, a title, the prompt, then
 * the component's own choices. Every plugin's question looks alike and is found the same way
 * (by its region's name).
 *
 * @example
 * <QuestionPanel label="Pick a dish" icon={<ForkIcon />} title="Tonight's menu" prompt={promptOf(message)}>
 *   <ChoiceList ... />
 *   <AnswerBar status={...}><QuietButton ...>Decline</QuietButton></AnswerBar>
 * </QuestionPanel>
 */
export function QuestionPanel({
  label,
  icon,
  tone = 'sky',
  title,
  prompt,
  children,
}: {
  /** The region's accessible name. */
  label: string
  icon?: ReactNode
  tone?: keyof typeof TONES
  title: ReactNode
  /** A line under the title, usually `promptOf(message)`. */
  prompt?: ReactNode
  children: ReactNode
}) {
  return (
    <section aria-label={label} className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-700/70 dark:bg-zinc-900 sm:p-4">
      <header className="flex items-center gap-3">
        {icon ? <span className={`grid h-9 w-9 shrink-0 place-items-center rounded-full text-white ${TONES[tone]}`}>{icon}</span> : null}
        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-50">{title}</h3>
          {prompt ? <div className="text-sm text-zinc-600 dark:text-zinc-400">{prompt}</div> : null}
        </div>
      </header>
      {children}
    </section>
  )
}

/** The row under a question's choices: what was answered so far (announced politely), and its buttons; nothing when it has neither. */
export function AnswerBar({ status, children }: { status?: ReactNode; children?: ReactNode }) {
  if ((status === undefined || status === null || status === false) && Children.toArray(children).length === 0) return null
  return (
    <div className="mt-3 flex min-h-9 items-center justify-between gap-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {status}
      </p>
      {children}
    </div>
  )
}
