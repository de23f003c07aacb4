import { handleChatRequest } from '@/lib/http'
import { getChatApp } from '@/lib/server/chat-server-instance'
import { getChatCalls } from '@/lib/server/chat-calls-instance'

export const dynamic = 'force-dynamic'

/** The chat: a JSON request in, NDJSON events out, a kept chat's questions followed after its turn when asked (docs/http-contract.md). */
export async function POST(request: Request): Promise<Response> {
  const [{ chat, identity, admission, inFlight }, { calls }] = await Promise.all([getChatApp(), getChatCalls()])
  return handleChatRequest({ request, chat, identity, admission, inFlight, follow: calls.follow })
}
