import { until, type Operation, type Task } from 'effection'
import { ConversationError, type ChatCalls } from '../conversations'
import type { CallStanding } from '../engine'
import { watchEndedCalls } from '../engine/watch-ended-calls'
import type { WaitingCallNews } from '../protocol/ended-call'
import type { CallEnds } from '../sessions/call-ends'
import { warnFailure } from '../http/failure-log'
import type { FollowCalls } from '../http'

/** A page per identity following its waiting calls, on one instance: a few tabs and devices. */
export const DEFAULT_WATCHES_PER_IDENTITY = 16

export interface ChatCallsOptions {
  /** How a client's call stands now (`ChatServer.callStanding`). */
  standing(options: { clientId: string; callId: string }): Promise<CallStanding>
  /** The calls announced (`ChatServer.callEnds`: a Stop, a move-on, an operator's End, an answer), every instance's. */
  ends: Pick<CallEnds, 'listen'>
  /** Runs an operation in the scope the watches live in (the process's). */
  run<T>(operation: () => Operation<T>): Task<T>
  /** At most this many watches per identity on this instance; past it, 429 `too_many_watches`. */
  maxWatchesPerIdentity?: number
}

/** The chats API's `ChatCalls`, and how to end every watch (the process is stopping). */
export interface ChatCallsOfServer extends ChatCalls {
  /** Ends every watch's response, and answers a later one at once: a graceful stop waits for open responses, and the pages follow again elsewhere. */
  closeAll(): Promise<void>
  /**
   * A watch a turn goes on with on its response (`POST /api/chat` with `follow`): as `watch`,
   * counted with the identity's others; undefined past their bound or while stopping (the page
   * then follows by `GET /api/chats/:id/waiting`, which says why).
   */
  follow: FollowCalls
}

/**
 * The sessions' word on the calls chats leave waiting (`ChatCalls`): a read is one `standing`
 * per call; a watch is a task of the process's scope (`watchEndedCalls`) that writes an NDJSON
 * line for each call that ended or whose question shown was answered, and closes the response
 * once none is left to follow; the request going away ends
 * it, the stream cancelled or the process stopping halts it.
 */
export function createChatCalls({ standing, ends, run, maxWatchesPerIdentity = DEFAULT_WATCHES_PER_IDENTITY }: ChatCallsOptions): ChatCallsOfServer {
  const open = new Map<string, number>()
  let closed = false
  const watches = new Set<Task<void>>()
  const watch: ChatCalls['watch'] = async ({ owner, calls, signal }) => {
    // Stopping: an empty answer at once, and the page follows again (elsewhere, once this instance is out of the balancer).
    if (closed) return new ReadableStream({ start: (controller) => controller.close() })
    const held = open.get(owner) ?? 0
    if (held >= maxWatchesPerIdentity) {
      throw new ConversationError('too_many_watches', `You follow the waiting questions of ${held} chats already, as many as you may at once. Close a tab, or reload this page later.`)
    }
    open.set(owner, held + 1)
    const encoder = new TextEncoder()
    let task: Task<void> | undefined
    let ended = false
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const emit = (event: WaitingCallNews) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
        // The watch's task owns its whole life: the request going away ends it from inside, a
        // failure is reported by it, and whoever halts it (the stream cancelled, the process
        // stopping) awaits the halt.
        const watching = run(function* () {
          try {
            yield* watchEndedCalls({ calls, standing: (callId) => until(standing({ clientId: owner, callId })), listen: (listener) => ends.listen(owner, listener), gone: signal, emit })
          } catch (error) {
            // A store that fails ends this response early; the page follows again.
            warnFailure('waiting_calls_follow_failed', 'following a chat’s waiting calls ended early', error)
          } finally {
            const left = (open.get(owner) ?? 1) - 1
            if (left > 0) open.set(owner, left)
            else open.delete(owner)
            ended = true
            if (task) watches.delete(task)
            try {
              controller.close()
            } catch {
              // Cancelled by the client already.
            }
          }
        })
        task = watching
        if (!ended) watches.add(watching)
      },
      async cancel() {
        await task?.halt()
      },
    })
    return body
  }
  return {
    async ended(owner, callIds) {
      const stands = await Promise.all([...new Set(callIds)].map((callId) => standing({ clientId: owner, callId })))
      return stands.flatMap((stand) => (stand.kind === 'ended' ? [stand.event] : []))
    },
    watch,
    async follow(options) {
      if (closed) return undefined
      try {
        return await watch(options)
      } catch (error) {
        if (!(error instanceof ConversationError)) warnFailure('waiting_calls_follow_failed', 'following a turn’s questions on its response failed', error)
        return undefined
      }
    },
    async closeAll() {
      closed = true
      await Promise.all([...watches].map((watch) => watch.halt()))
    },
  }
}
