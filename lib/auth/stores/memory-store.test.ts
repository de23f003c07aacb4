import { describeAuthStoreContract } from '../testing/auth-store-contract'
import { createMemoryAuthStore } from './memory-store'

describeAuthStoreContract('memory', {
  *setup() {
    return createMemoryAuthStore()
  },
})
