import { vi } from 'vitest'
import { createClientIdentity } from '@/lib/http'
import { createMemoryConversationStore, handleChatsRequest, useConversations, type ChatsApp, type ChatsEndpoint, type Conversations } from '@/lib/conversations'
import { FIRST_TURN } from '@/lib/conversations/testing/chat-events'
import { openInScope, type InScope } from '@/lib/testing/in-scope'

/**
 * The real chats API (`handleChatsRequest` over the memory store) answering this test's
 * `fetch`, as the routes under app/api/chats would, for one browser: the identity cookie the
 * first answer sets is sent with every later request. `clock` is the server's time.
 */
export interface ChatsApiInProcess {
  conversations: Conversations
  run: InScope<Conversations>['run']
  clock: { now: number }
  /** Every request the page made, as `METHOD path`. */
  requests: string[]
  /** The browser's identity, as the store names the owner of its chats. */
  owner(): string
  /** Makes a chat as the browser would (`POST /api/chats`), titled by a rename when `title` is given; its id. */
  create(title?: string): Promise<string>
  /** Starts a turn in the chat that ends waiting for an answer (a booking at its seat question). */
  makeWaiting(id: string): Promise<void>
  close(): Promise<void>
}

const identity = createClientIdentity({ secret: 'a-secret-for-the-sidebar-tests-only-0123456789' })
export const UNDO_MS = 30_000

export async function serveChatsApi(): Promise<ChatsApiInProcess> {
  const clock = { now: Date.now() }
  const opened = await openInScope(() => useConversations({ store: createMemoryConversationStore(), now: () => clock.now, undoMs: UNDO_MS }))
  const app: ChatsApp = { conversations: opened.value, identity, limits: { maxChats: 5000, maxEvents: 20_000, maxBytes: 8 * 1024 * 1024 }, run: opened.run }
  let cookie: string | undefined
  const requests: string[] = []
  const ownerNow = () => {
    const request = new Request('http://localhost')
    if (cookie) request.headers.set('cookie', cookie)
    return identity.resolve(request).clientId
  }
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost')
    const method = init.method ?? 'GET'
    requests.push(`${method} ${url.pathname}${url.search}`)
    const request = new Request(url, { ...init, method })
    // Set after: a DOM's Request, as a browser's, drops a `Cookie` given to its constructor.
    if (cookie) request.headers.set('cookie', cookie)
    const response = await handleChatsRequest({ app, request, endpoint: endpointOf(method, url.pathname) })
    const set = response.headers.get('set-cookie')
    if (set) cookie = set.split(';')[0]
    return response
  })
  return {
    conversations: opened.value,
    run: opened.run,
    clock,
    requests,
    async create(title) {
      const created = (await (await fetch('/api/chats', { method: 'POST' })).json()) as { chat: { id: string } }
      clock.now += 1
      if (title !== undefined) await fetch(`/api/chats/${created.chat.id}`, { method: 'PATCH', body: JSON.stringify({ title }), headers: { 'Content-Type': 'application/json' } })
      clock.now += 1
      return created.chat.id
    },
    owner: ownerNow,
    async makeWaiting(id) {
      const owner = ownerNow()
      const turn = await opened.run(() => opened.value.startTurn(owner, id, { text: 'Book a flight from NYC to LAX' }))
      await opened.run(() => opened.value.appendEvents(owner, id, turn, FIRST_TURN))
      clock.now += 1
    },
    async close() {
      vi.unstubAllGlobals()
      await opened.destroy()
    },
  }
}

/** The route of app/api/chats that answers `method path`. */
function endpointOf(method: string, path: string): ChatsEndpoint {
  const [, api, chats, id, action] = path.split('/')
  if (api !== 'api' || chats !== 'chats') throw new Error(`Not a chats API path: ${path}`)
  if (id === undefined) return { action: method === 'POST' ? 'create' : 'list' }
  if (action === 'restore' || action === 'export') return { action, id }
  return { action: method === 'PATCH' ? 'rename' : method === 'DELETE' ? 'delete' : 'get', id }
}
