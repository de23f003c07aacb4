import { describeBudgetStoreContract } from '../testing/budget-store-contract'
import { createMemoryBudgetStore } from './memory-store'

describeBudgetStoreContract('memory', {
  *setup() {
    return createMemoryBudgetStore()
  },
})
