import { handleChatRequest } from '@/lib/engine'
import { getChatServer } from '@/lib/server/chat-server-instance'

export const dynamic = 'force-dynamic'

/** The chat: a JSON request in, NDJSON events out (ARCHITECTURE.md, "The HTTP contract"). */
export async function POST(request: Request): Promise<Response> {
  return handleChatRequest({ request, chat: await getChatServer() })
}
