import { CHAT_EXPORT_FORMAT, CHAT_EXPORT_VERSION, type ChatExport } from '../../lib/conversations/chat-export'
import type { ChatEvent, Message } from '../../lib/protocol'

/** Characters of one streamed piece of an answer, and of one answer. */
const PIECE = 2_000
const ANSWER = 64_000

/** A long answer to question `index`: sentences that differ from one turn to the next. */
function answerTo(index: number): string {
  const sentences: string[] = []
  for (let length = 0, n = 0; length < ANSWER; n++) {
    const sentence = `Day ${index + 1}, stop ${n + 1}: the train leaves at ${String(6 + (n % 14)).padStart(2, '0')}:${String((n * 7) % 60).padStart(2, '0')}, and the walk from the station takes ${5 + ((index + n) % 25)} minutes.`
    sentences.push(sentence)
    length += sentence.length + 1
  }
  return sentences.join(' ').slice(0, ANSWER)
}

function turnsOf(count: number): { turns: ChatExport['turns']; messages: Message[] } {
  const messages: Message[] = []
  const turns = Array.from({ length: count }, (_, index) => {
    const question = `Plan day ${index + 1} of the trip, every stop.`
    const answer = answerTo(index)
    messages.push({ role: 'user', content: question }, { role: 'assistant', content: answer })
    const pieces: ChatEvent[] = []
    for (let at = 0; at < answer.length; at += PIECE) pieces.push({ type: 'text', content: answer.slice(at, at + PIECE) })
    // Only the last conversation_state carries the conversation, as the server exports a chat.
    const last = index === count - 1
    const events: ChatEvent[] = [...pieces, { type: 'conversation_state', messages: last ? [...messages] : [] }, { type: 'complete', text: answer }]
    return { input: { text: question }, events }
  })
  return { turns, messages }
}

/**
 * A JSON export (lib/conversations/chat-export.ts) of a long chat, at least `bytes` long as JSON,
 * shaped as the server writes one: each turn a question and a long answer streamed in pieces,
 * then the conversation and `complete`; the last turn's `conversation_state` and the export's
 * `conversationState` carry the whole conversation, the earlier ones `[]`. Made by hand, so its
 * messages carry no signatures: it imports to be read, as an export of another server does.
 */
export function longChatExport({ title, bytes }: { title: string; bytes: number }): { exported: ChatExport; json: string } {
  const build = (count: number) => {
    const { turns, messages } = turnsOf(count)
    const exported: ChatExport = { format: CHAT_EXPORT_FORMAT, version: CHAT_EXPORT_VERSION, title, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000, turns, conversationState: messages }
    return { exported, json: JSON.stringify(exported) }
  }
  const one = Buffer.byteLength(build(1).json)
  for (let count = Math.max(1, Math.floor(bytes / one)); ; count++) {
    const built = build(count)
    if (Buffer.byteLength(built.json) >= bytes) return built
  }
}
