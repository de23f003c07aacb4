import { Chat } from '@/components/Chat'
import { pluginSuggestions } from '@/plugins'

export default function Page() {
  return <Chat suggestions={pluginSuggestions} />
}
