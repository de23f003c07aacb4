import type { ToolCallStatus } from '@/lib/client'

const LOOK: Record<ToolCallStatus, { label: string; className: string; dot: string }> = {
  running: {
    label: 'Running',
    className: 'bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-400/30',
    dot: 'bg-sky-500 animate-pulse',
  },
  awaiting_input: {
    label: 'Waiting for you',
    className: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-400/30',
    dot: 'bg-amber-500 animate-pulse',
  },
  completed: {
    label: 'Completed',
    className: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/30',
    dot: 'bg-emerald-500',
  },
  failed: {
    label: 'Failed',
    className: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-400/30',
    dot: 'bg-red-500',
  },
  cancelled: {
    label: 'Cancelled',
    className: 'bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-500/10 dark:text-zinc-300 dark:ring-zinc-400/30',
    dot: 'bg-zinc-400',
  },
  stopped: {
    label: 'Stopped',
    className: 'bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-500/10 dark:text-zinc-300 dark:ring-zinc-400/30',
    dot: 'bg-zinc-400',
  },
}

export function toolStatusLabel(status: ToolCallStatus): string {
  return LOOK[status].label
}

export function ToolStatusBadge({ status }: { status: ToolCallStatus }) {
  const look = LOOK[status]
  return (
    <span
      role="status"
      data-testid="tool-status"
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${look.className}`}
    >
      <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${look.dot}`} />
      {look.label}
    </span>
  )
}
