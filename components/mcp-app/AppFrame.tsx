'use client'

import { useState, type ReactNode, type Ref } from 'react'
import type { LogLine } from '@/lib/client'
import { ToolLogs } from '../ToolLogs'
import { inlineHostContext, type OpenedApp } from './app-bridge-session'
import { LinkConfirm, type PendingLink } from './LinkConfirm'
import { registerLiveApp } from './live-apps'

const LEVELS = new Set<LogLine['level']>(['debug', 'info', 'warning', 'error'])

/** A frame the chat's server opened for an app: the tool's (`/api/mcp-apps/frames`) or a question's (`/api/mcp-apps/question-frames`). */
export type OpenedFrame = Pick<OpenedApp, 'src' | 'prefersBorder'>

/**
 * Asks the chat's server to open an app's frame (`route`, with `body`): the frame, or the
 * server's refusal message (undefined when it gave none: `status` says what it answered).
 * Rejects when the request could not be made (and when `signal` aborted it).
 */
export async function openAppFrame<Opened extends OpenedFrame>(route: string, body: unknown, signal: AbortSignal): Promise<{ opened: Opened } | { refused: string | undefined; status: number }> {
  const response = await fetch(route, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  })
  const answer = (await response.json().catch(() => undefined)) as Opened | { error?: { message?: string } } | undefined
  if (response.ok && answer && 'src' in answer) return { opened: answer }
  return { refused: (answer as { error?: { message?: string } } | undefined)?.error?.message, status: response.status }
}

/**
 * What every app frame of the chat handles alike, whatever it is for: its height, its logs, the
 * links it asks to open (confirmed by the person first). `handlers` go to its bridge; the
 * state is what `AppFrame` shows.
 */
export function useAppFrameChrome() {
  const [height, setHeight] = useState(160)
  const [logs, setLogs] = useState<LogLine[]>([])
  const [link, setLink] = useState<PendingLink | undefined>()
  const handlers = {
    resized: setHeight,
    log: (level: string, message: string) =>
      setLogs((lines) => [...lines.slice(-49), { level: LEVELS.has(level as LogLine['level']) ? (level as LogLine['level']) : 'info', message }]),
    confirmLink: (url: string) =>
      new Promise<boolean>((resolve) => {
        setLink({
          url,
          decide(open) {
            setLink(undefined)
            resolve(open)
          },
        })
      }),
  }
  return { height, logs, link, handlers }
}

/**
 * A connected app's life beside the page: the chat's theme as its host context, followed as
 * the person's colour scheme changes, and its teardown known to the chat (which tears every
 * live app down before a new chat). Returns what ends both.
 */
export function followHostContext({ setHostContext, teardown }: { setHostContext(context: ReturnType<typeof inlineHostContext>): void; teardown(): Promise<void> }): {
  hostContext: ReturnType<typeof inlineHostContext>
  stop(): void
} {
  const dark = matchMedia('(prefers-color-scheme: dark)')
  const onTheme = () => setHostContext(inlineHostContext(dark.matches))
  dark.addEventListener('change', onTheme)
  const unregister = registerLiveApp(teardown)
  return {
    hostContext: inlineHostContext(dark.matches),
    stop() {
      unregister()
      dark.removeEventListener('change', onTheme)
    },
  }
}

/**
 * An app's sandboxed frame in the chat, with what it asks of the person under it. The app's
 * document comes from `/api/mcp-apps/…`, whose own CSP sandboxes it into an opaque origin, and
 * the iframe is sandboxed too (scripts and forms, never `allow-same-origin`): the app cannot read
 * the chat, its cookies or its storage, and talks to the chat only through its bridge over
 * `postMessage`. Its `src` is set by whoever connects the bridge, once the bridge listens.
 */
export function AppFrame({
  opened,
  frame,
  title,
  testId,
  chrome,
  children,
}: {
  opened: OpenedFrame | undefined
  frame: Ref<HTMLIFrameElement>
  title: string
  testId: string
  chrome: ReturnType<typeof useAppFrameChrome>
  /** What else the app asks of the person, under its frame (its tool calls' approvals). */
  children?: ReactNode
}) {
  return (
    <>
      {opened ? (
        <iframe
          ref={frame}
          title={title}
          data-testid={testId}
          // Never allow-same-origin: with it the app would run on the chat's own origin.
          sandbox="allow-scripts allow-forms"
          referrerPolicy="no-referrer"
          style={{ height: chrome.height }}
          className={`block w-full rounded-lg bg-white dark:bg-zinc-950 ${opened.prefersBorder === false ? '' : 'border border-zinc-200 dark:border-zinc-800'}`}
        />
      ) : (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Loading the app…</p>
      )}
      {chrome.link ? <LinkConfirm link={chrome.link} /> : null}
      {children}
      {chrome.logs.length > 0 ? <ToolLogs logs={chrome.logs} /> : null}
    </>
  )
}
