import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

/**
 * Follows the chat's waiting tool calls: an NDJSON line for each that ends elsewhere (an
 * operator's End, its idle time-out), as it ends; the response ends once none waits.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'waiting', id: (await params).id } })
}
