import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { createMemorySessionStore, memorySessionKey, type MemorySessionEntry } from './memory-store'
import { describeSessionStoreContract, sessionRecord } from './session-store-contract'

describeSessionStoreContract('memory', {
  expiresItself: false,
  // eslint-disable-next-line require-yield
  *setup() {
    const entries = new Map<string, MemorySessionEntry>()
    return {
      store: createMemorySessionStore(entries),
      // eslint-disable-next-line require-yield
      *corrupt(clientId, id) {
        entries.get(memorySessionKey(clientId, id))!.text = '{"format": 1, "id": '
      },
    }
  },
})

describe('memory session store', () => {
  it('counts the open sessions already in the map it is given, and forgets them when they end', async () => {
    const now = Date.now()
    const entries = new Map<string, MemorySessionEntry>()
    const first = createMemorySessionStore(entries)
    await run(() => first.create(sessionRecord({ id: 'waiting' })))
    await run(() => first.create(sessionRecord({ id: 'done', status: 'completed', pending: undefined })))
    // A second store over the same map (as a test that tampers with it builds one) starts from what is there.
    const second = createMemorySessionStore(entries)
    expect(await run(() => second.countOpen({ clientId: 'client-a', now }))).toEqual({ client: 1, all: 1 })
    expect(await run(() => second.update(sessionRecord({ id: 'waiting', status: 'completed', pending: undefined }), 1))).toBe(2)
    expect(await run(() => second.countOpen({ clientId: 'client-a', now }))).toEqual({ client: 0, all: 0 })
  })
})
