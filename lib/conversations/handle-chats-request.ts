import type { Operation } from 'effection'
import type { z } from 'zod'
import { ChatRequestError, clientAddressOf, readJsonBody, type Admission, type ClientIdentityResolver } from '../http'
import { createChatBodySchema, exportChatQuerySchema, listChatsQuerySchema, renameChatBodySchema, waitingChatQuerySchema } from './api-schema'
import type { Chat, ChatSummary } from './chat'
import { stillWaiting, type ChatCalls } from './chat-calls'
import { chatExportSchema, toChatExport } from './chat-export'
import { isChatId } from '../protocol/chat-id'
import type { Conversations } from './conversations'
import { toConversationFailure } from './conversation-failure'
import { chatNotFound, ConversationError } from './errors'
import type { ConversationLimits } from './limits'
import { chatToMarkdown } from './markdown-export'
import { endedCallId, type EndedCallEvent } from '../protocol/ended-call'

/** What the chats API needs: the chats, who is asking, and how to run an operation in the chats' scope. */
export interface ChatsApp {
  conversations: Conversations
  /** The chat's identity resolver: a chat belongs to the browser identity that made it. */
  identity: ClientIdentityResolver
  limits: ConversationLimits
  /**
   * The chat's admission: a chats request is charged to its address's own bucket (`enter`), so
   * that one address cannot flood it, but not to the server's budget for new work, which keeps
   * the server's CPU for model and tool work. A chats request starts neither, and the browser
   * makes them around its turns (the list after each one, the chat before its first): charged
   * as new work, they took the slot a busy server held for the person's message.
   */
  admission?: Pick<Admission, 'enter'>
  /** Runs an operation of `conversations` in the scope they live in. */
  run<T>(operation: () => Operation<T>): Promise<T>
  /**
   * The sessions' word on the calls chats leave waiting: a call ended elsewhere is shown ended
   * (`endedCalls`, `waiting`), and a page can follow a chat's (`waiting`). Without it, a chat
   * shows what it keeps and the `waiting` endpoint is 404.
   */
  calls?: ChatCalls
}

/** Which endpoint of the chats API a request is for (the routes under app/api/chats say). */
export type ChatsEndpoint =
  | { action: 'list' }
  | { action: 'create' }
  | { action: 'get' | 'rename' | 'delete' | 'restore' | 'export' | 'waiting'; id: string }

/** A body smaller than this is all a rename needs. */
const SMALL_BODY_BYTES = 16 * 1024

/**
 * The chats API (docs/conversations.md): who is asking (the identity cookie), what they sent
 * (bounded, validated), then the chats of that identity only — another identity's chat is
 * answered exactly as one that does not exist, 404. Every refusal is `{ error: { code, message } }`
 * with its status; Redis down is a 503 `store_unavailable`, as on the chat route.
 */
export async function handleChatsRequest({ app, request, endpoint }: { app: ChatsApp; request: Request; endpoint: ChatsEndpoint }): Promise<Response> {
  let headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  try {
    const client = await app.identity.identify(request)
    headers = { ...headers, ...client.headers }
    refuseOtherSites(request)
    const rate = app.admission?.enter(clientAddressOf(request))
    if (rate && !rate.allowed) {
      const message =
        rate.scope === 'address' ? 'Too many requests from your address. Wait a moment, then try again.' : 'The server is taking too many requests right now. Wait a moment, then try again.'
      throw new ChatRequestError('rate_limited', message, undefined, rate.retryAfterSeconds, rate.scope)
    }
    const response = await answer({ app, request, endpoint, owner: client.clientId })
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
    return response
  } catch (error) {
    const failure = toConversationFailure(error)
    if (failure) return failure.toResponse(headers)
    throw error
  }
}

async function answer({ app, request, endpoint, owner }: { app: ChatsApp; request: Request; endpoint: ChatsEndpoint; owner: string }): Promise<Response> {
  const { conversations, run, limits } = app
  if (endpoint.action === 'list') {
    const query = parse(listChatsQuerySchema, Object.fromEntries(new URL(request.url).searchParams), 'invalid_request')
    const page = await run(() => conversations.list(owner, query))
    const ended = await endedCalls(app, owner, page.chats)
    return Response.json({ chats: page.chats.map((chat) => listed(chat, ended)), ...(page.next ? { next: page.next } : {}) })
  }
  if (endpoint.action === 'create') {
    // An import may be as large as a full chat whose state is carried twice (top level and last event).
    // No body: a new empty chat. Next hands a route an empty stream, never null, for a POST a
    // browser sent without one (`fetch(url, { method: 'POST' })`, Content-Length: 0).
    const empty = request.body === null || (request.headers.get('content-length') === '0' && !request.headers.has('content-type'))
    const body = empty ? {} : await readJsonBody(request, 2 * limits.maxBytes + 64 * 1024)
    const parsed = parse(createChatBodySchema, body, 'invalid_request')
    const created =
      'import' in parsed
        ? await run(() => conversations.import(owner, parse(chatExportSchema, parsed.import, 'invalid_import')))
        : await run(() => conversations.create(owner))
    const { waitingCalls, ...chat } = created
    return Response.json({ chat: { ...chat, waiting: stillWaiting(created, await endedCalls(app, owner, [created])) } }, { status: 201, headers: { Location: `/api/chats/${created.id}` } })
  }

  const { id } = endpoint
  // A malformed id is answered as an unknown one: the store is not asked.
  if (!isChatId(id)) throw chatNotFound()
  switch (endpoint.action) {
    case 'get': {
      const chat = await run(() => conversations.get(owner, id))
      if (!chat) throw chatNotFound()
      return Response.json({ chat: shown(chat, await endedCalls(app, owner, [chat])) })
    }
    case 'waiting': {
      const { calls } = parse(waitingChatQuerySchema, Object.fromEntries(new URL(request.url).searchParams), 'invalid_request')
      // The stream names its calls only once the chat is known to be this owner's: its summary, not its turns.
      const chat = app.calls && (await run(() => conversations.summary(owner, id)))
      if (!chat) throw chatNotFound()
      // The questions (or calls) the page shows waiting, when it names them (only this owner's sessions are read):
      // one a turn closed meanwhile (a Stop or an answer on another page) is told at once; else the calls the chat keeps waiting.
      const body = await app.calls!.watch({ owner, calls: calls ?? chat.waitingCalls.map((callId) => ({ callId })), signal: request.signal })
      return new Response(body, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'X-Accel-Buffering': 'no' } })
    }
    case 'rename': {
      const { title } = parse(renameChatBodySchema, await readJsonBody(request, SMALL_BODY_BYTES), 'invalid_request')
      await run(() => conversations.rename(owner, id, title))
      return Response.json({ id, title })
    }
    case 'delete': {
      const { restorableUntil } = await run(() => conversations.delete(owner, id))
      return Response.json({ id, restorableUntil })
    }
    case 'restore': {
      await run(() => conversations.restore(owner, id))
      return Response.json({ id })
    }
    case 'export': {
      const { format } = parse(exportChatQuerySchema, Object.fromEntries(new URL(request.url).searchParams), 'invalid_request')
      const chat = await run(() => conversations.get(owner, id))
      if (!chat) throw chatNotFound()
      const name = fileName(chat.title)
      if (format === 'md') {
        return new Response(chatToMarkdown(chat), {
          headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.md"` },
        })
      }
      return Response.json(toChatExport(chat), { headers: { 'Content-Disposition': `attachment; filename="${name}.json"` } })
    }
  }
}

/** The calls the sessions ended among those `chats` keep waiting (none without `app.calls`, or when none waits). */
async function endedCalls(app: ChatsApp, owner: string, chats: readonly ChatSummary[]): Promise<EndedCallEvent[]> {
  const callIds = chats.flatMap((chat) => chat.waitingCalls)
  return app.calls && callIds.length > 0 ? app.calls.ended(owner, callIds) : []
}

/** A list entry: what a sidebar shows. */
function listed(chat: ChatSummary, ended: readonly EndedCallEvent[]) {
  return { id: chat.id, title: chat.title, updatedAt: chat.updatedAt, waiting: stillWaiting(chat, ended) }
}

/**
 * A chat as `GET /api/chats/:id` answers it: as kept, and, when calls it leaves waiting have
 * ended since (`ended`), those calls' events in `endedCalls`, for the page to read after its
 * turns; the stored turns are not changed.
 */
function shown({ waitingCalls, ...chat }: Chat, ended: readonly EndedCallEvent[]) {
  const own = ended.filter((event) => waitingCalls.includes(endedCallId(event)))
  return { ...chat, waiting: stillWaiting({ waitingCalls }, own), ...(own.length > 0 ? { endedCalls: own } : {}) }
}

/**
 * Browsers say who made a request: a change to chats comes from the chat page (same-origin), or
 * from a client that is not a browser (no `Sec-Fetch-Site`), never from another site's page.
 */
function refuseOtherSites(request: Request): void {
  if (request.method === 'GET' || request.method === 'HEAD') return
  const site = request.headers.get('sec-fetch-site')
  if (request.headers.get('origin') === 'null' || (site !== null && site !== 'same-origin' && site !== 'none')) {
    throw new ConversationError('forbidden_origin', 'Chats are changed from the chat page only.')
  }
}

function parse<Schema extends z.ZodType>(schema: Schema, value: unknown, code: 'invalid_request' | 'invalid_import'): z.infer<Schema> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  const what = code === 'invalid_import' ? 'This is not a chat export this server can import' : 'The request is not valid'
  throw new ConversationError(code, `${what}: ${first ? `${first.path || 'the body'}: ${first.message}` : 'it does not match.'}`, issues)
}

/** A file name from a title: letters, digits and dashes. */
function fileName(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'chat'
}
