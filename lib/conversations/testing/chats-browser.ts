import type { ChatsApp, ChatsEndpoint } from '../handle-chats-request'
import { handleChatsRequest } from '../handle-chats-request'

/** A browser of the chats API in-process: it keeps the identity cookie it is given, as a browser does. */
export interface ChatsBrowser {
  send(endpoint: ChatsEndpoint, options?: { method?: string; query?: string; body?: unknown; headers?: Record<string, string>; emptyStream?: boolean }): Promise<Response>
}

const METHODS: Record<ChatsEndpoint['action'], string> = {
  list: 'GET',
  create: 'POST',
  get: 'GET',
  rename: 'PATCH',
  delete: 'DELETE',
  restore: 'POST',
  export: 'GET',
  waiting: 'GET',
}

/** A new browser (no cookie yet) of `app`, calling `handleChatsRequest` with real `Request`s, as the routes do. */
export function chatsBrowser(app: ChatsApp): ChatsBrowser {
  let cookie: string | undefined
  return {
    async send(endpoint, { method = METHODS[endpoint.action], query = '', body, headers = {}, emptyStream = false } = {}) {
      const path = 'id' in endpoint ? `/api/chats/${endpoint.id}${endpoint.action === 'restore' || endpoint.action === 'export' || endpoint.action === 'waiting' ? `/${endpoint.action}` : ''}` : '/api/chats'
      const request = new Request(`http://localhost${path}${query}`, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        // `emptyStream`: no body, as Next hands a route a POST sent without one — an empty stream, not null.
        body: emptyStream ? new ReadableStream({ start: (controller) => controller.close() }) : body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        ...(emptyStream ? { duplex: 'half' } : {}),
      } as RequestInit)
      const response = await handleChatsRequest({ app, request, endpoint })
      const set = response.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]
      return response
    },
  }
}
