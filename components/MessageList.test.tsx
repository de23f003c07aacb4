import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ChatState } from '@/lib/client'
import { createPluginRegistry } from '@/lib/plugins'
import { MessageList } from './MessageList'

const sent: ChatState = {
  messages: [{ role: 'user', content: 'Hello' }],
  entries: [{ kind: 'user', id: 'user-0', text: 'Hello' }],
  status: 'streaming',
  turn: { kind: 'message', text: '', textReceived: false, receivedState: false, elicitIds: [] },
}
const registry = createPluginRegistry()

describe('MessageList', () => {
  it('shows the assistant thinking while a sent message waits for its answer', () => {
    expect(renderToStaticMarkup(<MessageList state={sent} renders={{}} registry={registry} />)).toContain('aria-label="Assistant is thinking"')
  })

  it('does not, while the busy server’s refusal waits to be sent again', () => {
    expect(renderToStaticMarkup(<MessageList state={sent} renders={{}} registry={registry} busy />)).not.toContain('Assistant is thinking')
  })
})
