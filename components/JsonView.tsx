/** A JSON value as readable key/value pairs: the generic view of a tool's result. */
export function JsonView({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-zinc-500">—</span>
  if (typeof value === 'string') return <span className="whitespace-pre-wrap break-words">{value}</span>
  if (typeof value !== 'object') return <span className="tabular-nums">{String(value)}</span>
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-zinc-500">none</span>
    if (value.every((item) => item === null || typeof item !== 'object')) return <span>{value.map(String).join(', ')}</span>
    return (
      <ol className="space-y-2">
        {value.map((item, index) => (
          <li key={index} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
            <JsonView value={item} />
          </li>
        ))}
      </ol>
    )
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return <span className="text-zinc-500">—</span>
  return (
    <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1.5">
      {entries.map(([key, item]) => (
        <div key={key} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{humanize(key)}</dt>
          <dd className="min-w-0 font-medium text-zinc-900 dark:text-zinc-100">
            <JsonView value={item} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** "ticketNumber" → "Ticket number", "seat_map" → "Seat map". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
