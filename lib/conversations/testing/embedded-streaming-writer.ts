// Run by embedded-store.test.ts as a child process, then killed with SIGKILL mid-turn: as the
// chat engine does while a turn streams, it appends one event at a time to a chat in the
// embedded store in the directory given as its argument, and only once an append has returned
// "sends" the event (prints `sent <n>` — what the browser would have received). Prints the
// chat's id first (`chat <id>`), and appends until it is killed.
import { main, sleep } from 'effection'
import { useConversations } from '../conversations'
import { useEmbeddedConversationStore } from '../stores/embedded-store'

const directory = process.argv[2]
if (!directory) throw new Error('usage: embedded-streaming-writer.ts <directory>')

await main(function* () {
  const chats = yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
  const { id } = yield* chats.create('owner')
  const turn = yield* chats.startTurn('owner', id, { text: 'Tell me a long story' })
  console.log(`chat ${id}`)
  for (let index = 0; ; index++) {
    yield* chats.appendEvents('owner', id, turn, [{ type: 'text', content: `piece ${index} ` }])
    console.log(`sent ${index}`)
    // The next batch comes on a later turn of the event loop, as the engine's do.
    yield* sleep(0)
  }
})
