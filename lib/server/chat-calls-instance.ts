import { createScope } from 'effection'
import { getChatApp } from './chat-server-instance'
import { createChatCalls, type ChatCallsOfServer } from './chat-calls-of-sessions'
import { logFailure } from '../http/failure-log'

/** The app's word on the calls chats leave waiting. */
export interface ChatCallsApp {
  calls: ChatCallsOfServer
}

const globalForCalls = globalThis as typeof globalThis & { chatCalls?: Promise<ChatCallsApp> }

/**
 * One for the process (kept on globalThis, as the other instances): the chat server's sessions
 * and the stops of calls they announce to every instance (`ChatServer.callEnds`: Redis pub/sub
 * with `REDIS_URL`, opened with the chat server's stores, else within this process), and the
 * watches that follow them, tasks of a scope of the process's. On SIGTERM every watch's response
 * ends, so that the graceful stop finishes; the pages follow again, on another instance.
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
        .catch((error: unknown) => logFailure('waiting_calls_close_failed', 'ending the waiting calls’ streams on SIGTERM failed', error))
    })
  }
  return globalForCalls.chatCalls
}

async function start(): Promise<ChatCallsApp> {
  const { chat } = await getChatApp()
  // The watches' scope lasts as long as the process, as the chat server's does.
  const [scope] = createScope()
  return { calls: createChatCalls({ standing: (call) => chat.callStanding(call), ends: chat.callEnds, run: (operation) => scope.run(operation) }) }
}
