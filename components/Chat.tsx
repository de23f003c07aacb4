'use client'

import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { slashCommandTools, useChat } from '@/lib/client'
import type { PluginRegistry } from '@/lib/plugins'
import { BusyNotice } from './BusyNotice'
import { BudgetNotice } from './BudgetNotice'
import { ChatHeader } from './ChatHeader'
import { Composer, type ComposerHandle } from './Composer'
import { EmptyState } from './EmptyState'
import { serverSuggestions } from './server-suggestions'
import { AlertIcon } from './icons'
import { MessageList } from './MessageList'
import { ServerNotice } from './mcp/ServerNotice'
import { useTools } from './use-tools'
import { teardownMcpApps } from './mcp-app/live-apps'
import { McpAppHostProvider, type McpAppHost } from './mcp-app/mcp-app-host-context'

/**
 * What the sidebar listens to (`chats:changed`, `detail.id`): a chat was created, or a turn of it
 * ended — its title, place in the list or waiting question may have changed.
 */
function announceChatsChanged(id: string) {
  window.dispatchEvent(new CustomEvent('chats:changed', { detail: { id } }))
}

/**
 * One chat, kept on the server; another chat is another `Chat` (`key`: components/chats/use-shown-chat.ts
 * decides which is shown). `chatId`: the chat of `/c/<id>`, loaded as it was; without, a new chat
 * (`/`), created by its first message, which `onCreated` says (the address then names it).
 * `suggestions`: what the plugins suggest saying in an empty chat (from the server's plugin list);
 * `registry`: the tool UIs, which `app/` composes (`createChatRegistry`).
 */
export function Chat({
  chatId,
  suggestions = [],
  registry,
  onCreated,
}: {
  chatId?: string
  suggestions?: readonly string[]
  registry: PluginRegistry
  onCreated?: (id: string) => void
}) {
  const router = useRouter()
  const onChange = useCallback(
    ({ id, created }: { id: string; created: boolean }) => {
      if (created) onCreated?.(id)
      announceChatsChanged(id)
    },
    [onCreated],
  )
  const { state, renders, ready, notFound, busy, send, stop, setAppContext } = useChat({ registry, chatId, onChange })
  // A chat being loaded is not an empty one: no suggestions flash before it.
  const empty = state.entries.length === 0 && (chatId === undefined || ready)
  const composer = useRef<HTMLTextAreaElement>(null)
  const composerHandle = useRef<ComposerHandle>(null)
  // A message refused for today's budget goes back to the composer, to be sent once it resets.
  const { budgetSpent } = state
  useEffect(() => {
    if (budgetSpent) composerHandle.current?.keep(budgetSpent.text)
  }, [budgetSpent])
  // The tool list is read again when a turn ends and when a command is started.
  const [commandStarts, setCommandStarts] = useState(0)
  const listing = useTools(`${state.status === 'streaming'}-${commandStarts}`)
  const status = useRef(state.status)
  status.current = state.status
  const appHost = useMemo<McpAppHost>(
    () => ({
      sendMessage(text) {
        // As the composer: one turn at a time, none while a tool waits for the user.
        if (status.current === 'streaming' || status.current === 'awaiting_input') return false
        void send(text)
        return true
      },
      setAppContext,
    }),
    [send, setAppContext],
  )

  return (
    <div
      data-testid="chat"
      data-chat
      data-chat-status={state.status}
      data-ready={ready}
      className="flex h-dvh flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
    >
      {/* New chat goes to `/`, which shows a new chat; this one is kept (on the server, a waiting question too). Its apps are torn down first. */}
      <ChatHeader onNewChat={() => void teardownMcpApps().then(() => router.push('/'))} />
      <main data-scroll-container className="flex flex-1 flex-col overflow-y-auto">
        <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-3 py-6 sm:px-4">
          {/* Rendered on the server too: the first paint is the empty state, not a blank page. */}
          {notFound ? (
            <ChatNotFound />
          ) : empty ? (
            <EmptyState
              onSuggestion={(text) => {
                // The suggestion goes away with the empty state: the composer keeps the focus.
                composer.current?.focus()
                void send(text)
              }}
              servers={serverSuggestions(listing)}
              onCommand={(command) => composerHandle.current?.startCommand(command)}
              suggestions={suggestions}
              disabled={state.status === 'streaming'}
            />
          ) : null}
          <McpAppHostProvider value={appHost}>
            <MessageList state={state} renders={renders} registry={registry} busy={busy !== undefined} />
          </McpAppHostProvider>
        </div>
      </main>
      <footer className="shrink-0 bg-gradient-to-t from-zinc-50 via-zinc-50 to-zinc-50/0 dark:from-zinc-950 dark:via-zinc-950 dark:to-zinc-950/0">
        <ServerNotice servers={listing.servers} onChanged={listing.reload} />
        {/* Where a refused request's error shows: while the busy server's refusal is retried, a quiet notice instead. */}
        <BusyNotice busy={busy} />
        {state.budgetSpent && !busy ? <BudgetNotice resetsAt={state.budgetSpent.resetsAt} /> : null}
        {state.error && !busy ? (
          <div className="mx-auto w-full max-w-3xl px-3 sm:px-4">
            <p
              role="alert"
              className="flex items-start gap-2 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
            >
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <span>{state.error}</span>
            </p>
          </div>
        ) : null}
        <Composer
          inputRef={composer}
          status={state.status}
          ready={ready && !notFound}
          onSend={(text) => void send(text)}
          onStop={() => void stop()}
          tools={slashCommandTools(listing.tools)}
          onCommandStart={() => setCommandStarts((count) => count + 1)}
          handle={composerHandle}
        />
      </footer>
    </div>
  )
}

/** `/c/<id>` of no chat of this browser's: said plainly, never another browser's chat. */
function ChatNotFound() {
  return (
    <div role="status" className="m-auto flex flex-col items-center gap-3 text-center">
      <h2 className="text-lg font-semibold">Chat not found</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">There is no such chat in this browser. It may have been deleted.</p>
      <Link href="/" className="rounded-lg border border-zinc-200 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800">
        Start a new chat
      </Link>
    </div>
  )
}
