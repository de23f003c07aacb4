import { useRef } from 'react'
import { renderKey, type RenderMap, type ToolCallEntry } from '@/lib/client'
import type { PluginRegistry } from '@/lib/plugins'
import { ElicitationView } from './ElicitationView'
import { AlertIcon, ToolIcon } from './icons'
import { ToolLogs } from './ToolLogs'
import { ToolProgress } from './ToolProgress'
import { ToolResult } from './ToolResult'
import { ToolStatusBadge } from './ToolStatusBadge'
import { useFocusFollows } from './use-focus-follows'
import { usePluginUi } from './use-plugin-ui'
import { McpAppSlot } from './mcp/McpAppSlot'

/** One tool call: what was called, how far it got, what it asks the user, and how it ended. */
export function ToolCallCard({ entry, renders, registry }: { entry: ToolCallEntry; renders: RenderMap; registry: PluginRegistry }) {
  const summary = summarizeArguments(entry.arguments)
  const active = entry.status === 'running' || entry.status === 'awaiting_input'
  const ui = usePluginUi({ registry, toolName: entry.name })
  const card = useRef<HTMLElement>(null)
  const result = useRef<HTMLDivElement>(null)
  useFocusFollows({ card, result, hasResult: entry.result !== undefined })
  return (
    <section
      ref={card}
      // Focusable by the chat only: it holds the focus between an answer and what comes next.
      tabIndex={-1}
      role="group"
      aria-label={`Tool call ${entry.name}`}
      data-testid="tool-call"
      data-call-id={entry.callId}
      data-status={entry.status}
      className={`overflow-hidden rounded-2xl border bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:bg-zinc-900/70 ${
        entry.status === 'awaiting_input'
          ? 'border-amber-300 dark:border-amber-500/40'
          : entry.status === 'failed'
            ? 'border-red-200 dark:border-red-500/30'
            : 'border-zinc-200 dark:border-zinc-800'
      }`}
    >
      <header className="flex items-start gap-3 px-3 py-3 sm:px-4">
        <span className="grid h-8 w-8 shrink-0 place-items-center rounded-lg bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          <ToolIcon className="h-4 w-4" />
        </span>
        {/* Wrapped, never cut mid-word: on a phone the heading takes two lines rather than lose its end. */}
        <div className="min-w-0 flex-1">
          {entry.title ? (
            <>
              <p className="break-words text-sm font-semibold text-zinc-900 dark:text-zinc-100" data-testid="tool-title">
                {entry.title}
              </p>
              <p className="break-words font-mono text-xs text-zinc-600 dark:text-zinc-400">{entry.name}</p>
            </>
          ) : (
            <>
              <p className="break-words font-mono text-sm font-semibold text-zinc-900 dark:text-zinc-100">{entry.name}</p>
              {summary ? (
                <p className="break-words text-xs text-zinc-600 dark:text-zinc-400" data-testid="tool-arguments">
                  {summary}
                </p>
              ) : null}
            </>
          )}
        </div>
        <ToolStatusBadge status={entry.status} />
      </header>

      {/* Progress says nothing once the tool is over: its result or its error says how it ended. */}
      {entry.progress && active ? (
        <ToolProgress message={entry.progress.message} value={entry.progress.value} active={active} />
      ) : null}

      {entry.elicitations.map((elicitation) => (
        <ElicitationView key={elicitation.question.elicitId} elicitation={elicitation} renders={renders[renderKey(elicitation)] ?? []} />
      ))}

      {/* An external tool's MCP App renders here (see McpAppSlot). */}
      {entry.external?.uiResourceUri ? <McpAppSlot entry={entry} uiResourceUri={entry.external.uiResourceUri} /> : null}

      {entry.result ? (
        <ToolResult
          ref={result}
          result={entry.result}
          pending={ui.status === 'loading'}
          ResultView={ui.status === 'ready' ? ui.plugin.resultView : undefined}
        />
      ) : null}

      {entry.error ? (
        <p role="alert" className="mx-3 mb-3 flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200 sm:mx-4">
          <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{entry.error}</span>
        </p>
      ) : null}

      {entry.logs.length > 0 ? <ToolLogs logs={entry.logs} /> : null}
    </section>
  )
}

/** "from: NYC · destination: LAX": each value clipped at a word, so what is cut is whole words. */
export function summarizeArguments(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'object' || Array.isArray(value)) return clip(typeof value === 'string' ? value : JSON.stringify(value), 120)
  return Object.entries(value)
    .map(([key, item]) => `${key}: ${clip(typeof item === 'string' ? item : JSON.stringify(item), 40)}`)
    .join(' · ')
}

function clip(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= length) return line
  const cut = line.slice(0, length - 1)
  const space = cut.lastIndexOf(' ')
  return `${space > length / 2 ? cut.slice(0, space) : cut}…`
}
