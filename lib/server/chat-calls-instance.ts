import { createLocalCallEnds, type CallEnds } from '../sessions/call-ends'
import { useRedisCallEnds } from '../sessions/stores/redis-call-ends'
import { getChatApp } from './chat-server-instance'
import { createChatCalls, type ChatCallsOfServer } from './chat-calls-of-sessions'
import { readServerConfig } from './config'
import { openForProcess } from './open-for-process'

/** The app's word on the calls chats leave waiting, and how an end is announced to every instance. */
export interface ChatCallsApp {
  calls: ChatCallsOfServer
  /** Tells the pages following `clientId`'s call `callId`, on every instance, that it ended. */
  announce(clientId: string, callId: string): Promise<void>
}

const globalForCalls = globalThis as typeof globalThis & { chatCalls?: Promise<ChatCallsApp> }

/**
 * One for the process (kept on globalThis, as the other instances): the chat server's sessions,
 * and the ends of calls passed between instances — Redis pub/sub with `REDIS_URL`, else within
 * this process. On SIGTERM every watch's response ends, so that the graceful stop finishes; the
 * pages follow again, on another instance. Opened when the server starts (`instrumentation-node.ts`).
 */
export function getChatCalls(): Promise<ChatCallsApp> {
  if (!globalForCalls.chatCalls) {
    const starting = start()
    globalForCalls.chatCalls = starting
    // A start that failed is not kept: the next request tries again.
    starting.catch(() => {
      if (globalForCalls.chatCalls === starting) globalForCalls.chatCalls = undefined
    })
    process.once('SIGTERM', () => {
      globalForCalls.chatCalls
        ?.then(({ calls }) => calls.closeAll())
        .catch((error: unknown) => console.error(`Ending the waiting calls' streams on SIGTERM failed: ${error instanceof Error ? error.message : String(error)}`))
    })
  }
  return globalForCalls.chatCalls
}

async function start(): Promise<ChatCallsApp> {
  const { redisUrl } = readServerConfig()
  const [{ chat }, { value: ends, run }] = await Promise.all([
    getChatApp(),
    openForProcess<CallEnds>(function* () {
      return redisUrl ? yield* useRedisCallEnds({ url: redisUrl }) : createLocalCallEnds()
    }),
  ])
  return {
    calls: createChatCalls({ standing: (call) => chat.callStanding(call), ends, run }),
    announce: (clientId, callId) => run(() => ends.announce(clientId, callId)),
  }
}
