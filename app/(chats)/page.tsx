/**
 * `/`: a new chat, kept on the server once its first message is sent (then its address is
 * `/c/<id>`). The layout shows it (app/(chats)/layout.tsx).
 */
export default function Page() {
  return null
}
