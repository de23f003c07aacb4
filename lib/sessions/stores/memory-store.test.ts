import { createMemorySessionStore, memorySessionKey, type MemorySessionEntry } from './memory-store'
import { describeSessionStoreContract } from './session-store-contract'

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
