import { handleChatsRequest } from '@/lib/conversations'
import { getChatsApp } from '@/lib/server/conversations-instance'

export const dynamic = 'force-dynamic'

/** The chat as a file: `?format=json` (the import format, the default) or `?format=md`. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleChatsRequest({ app: await getChatsApp(), request, endpoint: { action: 'export', id: (await params).id } })
}
