// Run by embedded-stores-at-once.test.ts as one of several child processes: opens every embedded
// store a server opens at start, in the DATA_DIR the test names, when it names it, so that the
// processes open them together as servers started at once do.
// Prints "ready" once loaded; then for each line on stdin (a DATA_DIR) opens the stores there,
// closes them and prints "opened". A store that cannot be opened ends it with its error and
// exit code 1.
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { run } from 'effection'
import { useEmbeddedConversationStore } from '../../conversations'
import { useEmbeddedDeviceStore } from '../../devices'
import { useEmbeddedSessionStore } from '../../sessions/stores/embedded-store'

console.log('ready')
for await (const directory of createInterface({ input: process.stdin })) {
  try {
    await run(function* () {
      // In the order a server opens them: the devices and the chats, the chat's sessions, and the
      // MCP endpoint's rounds (a session store in DATA_DIR/mcp-rounds, mcp-server-instance.ts).
      yield* useEmbeddedDeviceStore({ directory })
      yield* useEmbeddedConversationStore({ directory })
      yield* useEmbeddedSessionStore({ directory })
      yield* useEmbeddedSessionStore({ directory: join(directory, 'mcp-rounds') })
    })
  } catch (error) {
    console.error(error)
    process.exit(1)
  }
  console.log('opened')
}
