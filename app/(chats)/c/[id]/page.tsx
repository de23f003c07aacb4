import { Chat } from '@/components/Chat'
import { pluginSuggestions } from '@/plugins'

/** `/c/<id>`: a chat kept on the server, as it was; "Chat not found" when it is none of this browser's. */
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params
  // Another chat is another component: nothing of one chat's state carries into the next.
  return <Chat key={id} chatId={id} suggestions={pluginSuggestions} />
}
