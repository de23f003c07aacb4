import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

/**
 * Follows the questions the page shows waiting (`?questions=`), or the chat's waiting tool calls:
 * an NDJSON line for each answered elsewhere (another page of the person) or whose call ends
 * elsewhere (a Stop or move-on on another page, an operator's End, its idle time-out), as it
 * happens; the response ends once none is left to follow.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'waiting', id: (await params).id } })
}
