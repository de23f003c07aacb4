// Run by embedded-store.test.ts as a child process, then killed with SIGKILL: writes two
// sessions through the embedded store in the directory given as its argument (one created,
// one created then updated), prints "written", and waits to be killed.
import { main, suspend } from 'effection'
import { SESSION_RECORD_FORMAT, type SessionRecord } from '../session-record'
import { useEmbeddedSessionStore } from '../stores/embedded-store'

const directory = process.argv[2]
if (!directory) throw new Error('usage: embedded-store-writer.ts <directory>')

function record(id: string, status: SessionRecord['status']): SessionRecord {
  const now = Date.now()
  return {
    format: SESSION_RECORD_FORMAT,
    id,
    clientId: 'client-a',
    toolName: 'book_flight',
    params: { from: 'LHR' },
    status,
    journal: [],
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 60_000,
    keepUntil: now + 3_600_000,
  }
}

await main(function* () {
  const store = yield* useEmbeddedSessionStore({ directory })
  yield* store.create(record('created', 'waiting'))
  yield* store.create(record('updated', 'waiting'))
  const version = yield* store.update(record('updated', 'running'), 1)
  if (version !== 2) throw new Error(`the update was refused (${version})`)
  console.log('written')
  yield* suspend()
})
