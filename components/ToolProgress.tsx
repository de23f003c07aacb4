/** Progress from the tool's `ctx.notify`: a bar when it gave a value (0..1), its message either way. */
export function ToolProgress({ message, value, active }: { message: string; value?: number; active: boolean }) {
  const percent = value === undefined ? undefined : Math.round(value * 100)
  return (
    <div className="px-3 pb-3 sm:px-4">
      <div className="mb-1.5 flex items-center justify-between gap-3 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="min-w-0 truncate" data-testid="tool-progress-message">
          {message}
        </span>
        {percent !== undefined ? <span className="shrink-0 tabular-nums">{percent}%</span> : null}
      </div>
      <div
        role="progressbar"
        aria-label="Tool progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={percent === undefined ? message : `${percent}% — ${message}`}
        className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ease-out ${
            percent === 100 ? 'bg-emerald-500' : 'bg-sky-500'
          } ${percent === undefined && active ? 'w-1/3 animate-pulse' : ''}`}
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  )
}
