import { handleChatRequest } from '@/lib/http'
import { getChatApp } from '@/lib/server/chat-server-instance'

export const dynamic = 'force-dynamic'

/** The chat: a JSON request in, NDJSON events out (docs/http-contract.md). */
export async function POST(request: Request): Promise<Response> {
  const { chat, identity, admission, inFlight } = await getChatApp()
  return handleChatRequest({ request, chat, identity, admission, inFlight })
}
