import { useEffect, useRef } from 'react'
import type { ChatState, RenderMap } from '@/lib/client'
import type { PluginRegistry } from '@/lib/plugins'
import { AssistantMessage, ThinkingIndicator } from './AssistantMessage'
import { ToolCallCard } from './ToolCallCard'
import { UserMessage } from './UserMessage'

/**
 * The conversation as the user sees it; follows new content while the reader is at the bottom.
 * `busy`: the request waits to be sent again (the chat says so below), so nobody is thinking.
 */
export function MessageList({
  state,
  renders,
  registry,
  busy = false,
}: {
  state: ChatState
  renders: RenderMap
  registry: PluginRegistry
  busy?: boolean
}) {
  const end = useRef<HTMLDivElement>(null)
  const last = state.entries.at(-1)
  const thinking =
    state.status === 'streaming' &&
    !busy &&
    !(last?.kind === 'assistant' && last.streaming) &&
    !(last?.kind === 'tool' && (last.status === 'running' || last.status === 'awaiting_input'))

  // Follow the conversation while the reader is at the bottom, judged before new content arrives.
  const pinned = useRef(true)
  useEffect(() => {
    const scroller = end.current?.closest('[data-scroll-container]')
    if (!scroller) return
    const onScroll = () => {
      pinned.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80
    }
    scroller.addEventListener('scroll', onScroll, { passive: true })
    return () => scroller.removeEventListener('scroll', onScroll)
  }, [])
  const userSpoke = last?.kind === 'user'
  useEffect(() => {
    if (userSpoke) pinned.current = true
    if (pinned.current) end.current?.scrollIntoView({ block: 'end' })
  }, [state.entries, renders, thinking, userSpoke])

  return (
    <div role="log" aria-label="Conversation" aria-live="polite" aria-busy={state.status === 'streaming'} className="space-y-6">
      {state.entries.map((entry) => {
        switch (entry.kind) {
          case 'user':
            return <UserMessage key={entry.id} text={entry.text} />
          case 'assistant':
            return <AssistantMessage key={entry.id} text={entry.text} streaming={entry.streaming} />
          case 'tool':
            return <ToolCallCard key={entry.id} entry={entry} renders={renders} registry={registry} />
        }
      })}
      {thinking ? <ThinkingIndicator /> : null}
      <div ref={end} />
    </div>
  )
}
