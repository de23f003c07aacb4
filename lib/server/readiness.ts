import { getChatApp } from './chat-server-instance'
import { getDeviceStore } from './device-store-instance'
import { stopHasBegun } from './graceful-stop'

/** A store's state as the readiness route reports it. */
export type StoreState = 'ok' | 'unavailable'

/** What `GET /api/ready` answers: 200 when `ready`, else 503. */
export interface Readiness {
  ready: boolean
  /** A graceful stop has begun (SIGTERM): the load balancer should send new work elsewhere. */
  stopping: boolean
  /** Each store answered one read (`ok`) or failed it (`unavailable`). */
  stores: { sessions: StoreState; chats: StoreState; devices: StoreState }
}

/** The identity nobody has: each store is asked for something of it, which is never there. */
const PROBE = 'readiness-probe'

/**
 * Whether this instance should be sent new work: not stopping, and each store (the sessions',
 * the chats', the devices') answers a read of a key that does not exist — one round trip to
 * Redis each, or one lookup in each embedded database. A store that cannot be reached makes the
 * instance not ready, and ready again once it answers; liveness (`/api/health`) stays 200
 * meanwhile, since restarting the process would not bring Redis back.
 */
export async function checkReadiness(): Promise<Readiness> {
  const stopping = stopHasBegun()
  const [{ chat, chats }, devices] = await Promise.all([getChatApp(), getDeviceStore()])
  const [sessions, kept, joined] = await Promise.all([
    answers(() => chat.waitingQuestion({ clientId: PROBE, callId: PROBE })),
    answers(() => chats.run(() => chats.conversations.get(PROBE, PROBE))),
    answers(() => devices.run(() => devices.store.browsers(PROBE))),
  ])
  const stores = { sessions, chats: kept, devices: joined }
  return { ready: !stopping && Object.values(stores).every((state) => state === 'ok'), stopping, stores }
}

async function answers(read: () => Promise<unknown>): Promise<StoreState> {
  try {
    await read()
    return 'ok'
  } catch {
    // Whatever the failure (Redis away, a database that cannot be read), the store did not answer.
    return 'unavailable'
  }
}
