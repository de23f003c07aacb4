import type { ChatEvent, Message } from '../../lib/protocol'
import { readNdjson } from '../../lib/client/read-ndjson'

/** A chat as `GET /api/chats/:id` answers it, as far as these tests read it. */
export interface StoredChat {
  id: string
  title: string
  updatedAt: number
  waiting: boolean
  turns: Array<{ input: Record<string, unknown>; events: ChatEvent[] }>
  /** The last `conversation_state`'s messages: what the next turn continues. */
  conversationState?: Message[]
}

/** One `POST /api/chat` of a kept chat: what the browser got, read line by line. */
export interface KeptTurn {
  status: number
  /** Every event the client read, in order, up to the end of the body or the connection's loss. */
  events: ChatEvent[]
  /** The JSON body of a refusal (not NDJSON). */
  json?: { error?: { code?: string; message?: string } }
  /** Why reading stopped early (the server died), if it did. */
  cut?: string
}

/** A refusal's body is `{ error: { code, message } }`; its code, if it has one and a message. */
export function errorCodeOf(json: unknown): string | undefined {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
  return typeof error?.code === 'string' && typeof error.message === 'string' && error.message.length > 0 ? error.code : undefined
}

/**
 * A browser with one chat kept on the server, as the chat page makes and uses it: the chat made
 * by `POST /api/chats` (which sets the `chat_client_id` cookie), every turn naming it (`chatId`)
 * and continuing the conversation of the last `conversation_state` it read. `baseURL` can move
 * to a restarted server; the cookie and the chat go along.
 */
export async function createKeptChat(baseURL: string) {
  let target = baseURL
  const created = await fetch(`${target}/api/chats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  if (created.status !== 201) throw new Error(`POST /api/chats: HTTP ${created.status} ${await created.text()}`)
  const setCookie = created.headers.get('set-cookie')?.split(';')[0]
  if (!setCookie) throw new Error('POST /api/chats set no cookie')
  const cookie: string = setCookie
  const id = ((await created.json()) as { chat: { id: string } }).chat.id
  let messages: Message[] = []

  /**
   * Sends `body` with the chat's id and reads the answer line by line; `onEvent` sees each event
   * as it is read (to act in the middle of a turn). A connection lost mid-body ends the read
   * with `cut`, keeping what was read before.
   */
  async function post(body: Record<string, unknown>, onEvent?: (event: ChatEvent, index: number) => void): Promise<KeptTurn> {
    const response = await fetch(`${target}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', cookie },
      body: JSON.stringify({ ...body, chatId: id }),
    })
    if (!response.headers.get('content-type')?.includes('application/x-ndjson')) {
      const text = await response.text()
      let json: KeptTurn['json']
      try {
        json = JSON.parse(text) as KeptTurn['json']
      } catch {
        json = undefined
      }
      return { status: response.status, events: [], json }
    }
    const events: ChatEvent[] = []
    let cut: string | undefined
    try {
      for await (const event of readNdjson(response.body!)) {
        events.push(event)
        onEvent?.(event, events.length - 1)
      }
    } catch (error) {
      cut = (error as Error).message
    }
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    return { status: response.status, events, ...(cut !== undefined ? { cut } : {}) }
  }

  /** `GET /api/chats/:id` as this browser: the status and the chat, or the refusal's JSON. */
  async function read(): Promise<{ status: number; chat?: StoredChat; json: unknown }> {
    const response = await fetch(`${target}/api/chats/${id}`, { headers: { cookie } })
    const json = (await response.json()) as { chat?: StoredChat }
    return { status: response.status, chat: response.status === 200 ? json.chat : undefined, json }
  }

  return {
    id,
    cookie,
    post,
    read,
    /** Says `text`, continuing the conversation. */
    say: (text: string, onEvent?: (event: ChatEvent, index: number) => void) => post({ messages: [...messages, { role: 'user', content: text }] }, onEvent),
    /** The conversation the next turn continues (from the last `conversation_state` read, or a reopened chat's). */
    get messages() {
      return messages
    },
    set messages(next: Message[]) {
      messages = next
    },
    get baseURL() {
      return target
    },
    set baseURL(next: string) {
      target = next
    },
  }
}

export type KeptChat = Awaited<ReturnType<typeof createKeptChat>>
