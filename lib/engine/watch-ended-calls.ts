import { createSignal, type Operation } from 'effection'
import type { WaitingCallNews, WatchedCall } from '../protocol/ended-call'
import type { CallStanding } from './call-standing'

export interface WatchEndedCallsOptions {
  /** The calls to follow (a chat's waiting ones, or those the page shows waiting). */
  calls: readonly WatchedCall[]
  /** How a call stands now: one read of the sessions' store (`ChatServer.callStanding`). */
  standing(callId: string): Operation<CallStanding>
  /**
   * Listens to the calls announced of the client (`CallEnds.listen`, bound to it): called first,
   * before any call is read, so that none falls between; what it returns stops listening.
   */
  listen(listener: (callId: string | undefined) => void): () => void
  /** When aborted (the request went away), the watch ends. */
  gone?: AbortSignal
  /** Told, once per call, that it ended or that the question followed was answered, as it is found. */
  emit(news: WaitingCallNews): void
  now?: () => number
}

/** What wakes the watch: a call announced (`undefined`: some may have been missed), an idle time-out due, or the request gone. */
type Wake = { announced: string | undefined } | { due: true } | { gone: true }

/** The longest a timer of Node waits at once (a longer one fires at once). */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * Follows a client's waiting tool calls until none waits as the page shows it, telling `emit` of
 * each that no longer does: its record is read at once (a call that moved on before is told
 * first), then again when it is announced (any stop the sessions write: a Stop on another page,
 * a new message that moves on, an operator's End; any answer they accept; on any instance) and
 * when its idle time-out is due (the moment its record says, not a poll: a call answered
 * meanwhile has a later one, which is waited for in turn). A call whose record has an answer to
 * the question followed is told as answered (`call_answered`: the page reads the chat again),
 * whatever it does now; else one that ended is told as it ended. A call working in some request
 * (`running`) is looked at again only when it is announced. Returns once no call is left to
 * follow or `gone` is aborted; halting it stops the watch.
 *
 * One task, whatever it waits on: the announcements, the time-out's timer and the request's end
 * all wake one subscription (a watch is made for every question a page shows: it is kept cheap).
 */
export function* watchEndedCalls({ calls, standing, listen, gone, emit, now = Date.now }: WatchEndedCallsOptions): Operation<void> {
  const questions = new Map(calls.map((call) => [call.callId, call.question]))
  /** Each call still followed, with the time its idle time-out is due (undefined while it runs). */
  const following = new Map<string, number | undefined>()
  function* look(callId: string): Operation<void> {
    const stands = yield* standing(callId)
    const question = questions.get(callId)
    if (question && stands.answered?.includes(question.seq)) {
      following.delete(callId)
      emit({ type: 'call_answered', callId, elicitId: question.elicitId })
    } else if (stands.kind === 'ended') {
      following.delete(callId)
      emit(stands.event)
    } else following.set(callId, stands.kind === 'waiting' ? stands.expiresAt : undefined)
  }
  const wake = createSignal<Wake, never>()
  // Subscribed before anything can wake it: nothing sent is lost (what comes during a read waits its turn).
  const woken = yield* wake
  const unlisten = listen((callId) => wake.send({ announced: callId }))
  const wentAway = () => wake.send({ gone: true })
  gone?.addEventListener('abort', wentAway, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    if (gone?.aborted) return
    for (const callId of questions.keys()) yield* look(callId)
    while (following.size > 0) {
      const due = Math.min(...[...following.values()].map((expiresAt) => expiresAt ?? Infinity))
      clearTimeout(timer)
      // An idle time-out is at most PLUGIN_SESSION_IDLE_TIMEOUT_MS away; none while every call runs: only an announcement.
      timer = Number.isFinite(due) ? setTimeout(() => wake.send({ due: true }), Math.min(LONGEST_TIMER_MS, Math.max(0, due - now()))) : undefined
      const next = (yield* woken.next()).value
      if ('gone' in next) return
      if ('due' in next) {
        const at = now()
        for (const [callId, expiresAt] of [...following]) if (expiresAt !== undefined && expiresAt <= at) yield* look(callId)
      } else if (next.announced === undefined) {
        for (const callId of [...following.keys()]) yield* look(callId)
      } else if (following.has(next.announced)) yield* look(next.announced)
    }
  } finally {
    clearTimeout(timer)
    unlisten()
    gone?.removeEventListener('abort', wentAway)
  }
}
