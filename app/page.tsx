import { Chat } from '@/components/Chat'

export default function Page() {
  return <Chat />
}
