import type { CallEnds } from '../call-ends'

/**
 * What a listener of `clientId`'s calls hears (`CallEnds.listen`), for a test to await in order:
 * `next()` is the next call announced (or `undefined`: some may have been missed), heard from
 * the moment this is made; `stop()` stops listening.
 */
export function heardCalls(ends: Pick<CallEnds, 'listen'>, clientId: string) {
  const heard: Array<string | undefined> = []
  const waiting: Array<(callId: string | undefined) => void> = []
  const stop = ends.listen(clientId, (callId) => {
    const next = waiting.shift()
    if (next) next(callId)
    else heard.push(callId)
  })
  return {
    next(): Promise<string | undefined> {
      if (heard.length > 0) return Promise.resolve(heard.shift())
      return new Promise((resolve) => waiting.push(resolve))
    },
    stop,
  }
}
