import { describeDeviceStoreContract } from '../testing/device-store-contract'
import { createMemoryDeviceStore } from './memory-store'

describeDeviceStoreContract('memory', {
  *setup() {
    return createMemoryDeviceStore()
  },
})
