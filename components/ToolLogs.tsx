import { useId, useState } from 'react'
import type { LogLine } from '@/lib/client'
import { ChevronIcon } from './icons'

const LEVEL_CLASS: Record<LogLine['level'], string> = {
  debug: 'text-zinc-500 dark:text-zinc-400',
  info: 'text-sky-700 dark:text-sky-400',
  warning: 'text-amber-700 dark:text-amber-400',
  error: 'text-red-600 dark:text-red-400',
}

/** The tool's `ctx.log` lines, folded away until asked for. */
export function ToolLogs({ logs }: { logs: LogLine[] }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <div className="border-t border-zinc-100 px-3 py-2 dark:border-zinc-800 sm:px-4">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-1 rounded text-xs font-medium text-zinc-500 hover:text-zinc-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-400 dark:hover:text-zinc-200"
      >
        <ChevronIcon className={`h-3.5 w-3.5 transition-transform ${open ? 'rotate-90' : ''}`} />
        Logs ({logs.length})
      </button>
      <ol id={id} hidden={!open} aria-label="Tool logs" className="mt-2 space-y-0.5 font-mono text-xs">
        {logs.map((line, index) => (
          <li key={index} className="flex gap-2">
            <span className={`w-14 shrink-0 uppercase ${LEVEL_CLASS[line.level]}`}>{line.level}</span>
            <span className="min-w-0 break-words text-zinc-700 dark:text-zinc-300">{line.message}</span>
          </li>
        ))}
      </ol>
    </div>
  )
}
