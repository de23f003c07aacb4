import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

type Context = { params: Promise<{ id: string }> }

/** The chat: its title, turns (input and events) and conversation state. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'get', id: (await params).id } })
}

/** Renames the chat: `{ title }`. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'rename', id: (await params).id } })
}

/** Deletes the chat, restorable for 30 s (`POST /api/chats/:id/restore`). */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'delete', id: (await params).id } })
}
