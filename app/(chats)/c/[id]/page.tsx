/**
 * `/c/<id>`: a chat kept on the server, as it was; "Chat not found" when it is none of this
 * browser's. The layout shows it (app/(chats)/layout.tsx).
 */
export default function Page() {
  return null
}
