import { NewChat } from '@/components/NewChat'
import { pluginSuggestions } from '@/plugins'

/** `/`: a new chat, kept on the server once its first message is sent (then its URL is `/c/<id>`). */
export default function Page() {
  return <NewChat suggestions={pluginSuggestions} />
}
