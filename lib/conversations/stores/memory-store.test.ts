import { describeConversationStoreContract } from '../testing/conversation-store-contract'
import { createMemoryConversationStore } from './memory-store'

describeConversationStoreContract('memory', {
  expiresItself: false,
  *setup() {
    return createMemoryConversationStore()
  },
})
