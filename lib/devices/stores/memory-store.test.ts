import { describeDeviceStoreContract } from './device-store-contract'
import { createMemoryDeviceStore } from './memory-store'

describeDeviceStoreContract('memory', {
  *setup() {
    return createMemoryDeviceStore()
  },
})
