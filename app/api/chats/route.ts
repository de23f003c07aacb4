import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

/** The browser identity's chats, newest first, a page at a time (`?limit=&cursor=`). */
export async function GET(request: Request): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'list' } })
}

/** A new empty chat (`{}`), or one imported from a JSON export (`{ import }`). */
export async function POST(request: Request): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'create' } })
}
