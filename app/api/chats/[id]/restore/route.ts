import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

/** Undoes a delete, within its undo time. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'restore', id: (await params).id } })
}
