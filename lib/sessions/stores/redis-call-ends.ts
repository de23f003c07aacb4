import { ensure, resource, until, type Operation } from 'effection'
import { createStoreClient } from '../../storage/redis-client'
import { createCallEndListeners, type CallEnds } from '../call-ends'
import { SessionStoreUnavailableError } from '../session-store'

/** A PUBLISH unanswered within this time fails, as a store command does. */
const COMMAND_TIMEOUT_MS = 500

/**
 * `CallEnds` over Redis pub/sub, for instances sharing one Redis: an announcement is one PUBLISH
 * on `<prefix>call-ended` (`{ clientId, callId }` as JSON), and each instance's one subscriber
 * passes what it hears to its own listeners (the announcing instance's too, by the same way).
 * Pub/sub keeps nothing: an instance whose subscription was down hears nothing of that while, so
 * when it is back every listener is told to look again (`undefined`).
 *
 * Two connections of its own (a subscribed connection takes no other commands). Fails at start,
 * naming the URL, when Redis cannot be reached; afterwards an announcement while Redis is down
 * fails with `SessionStoreUnavailableError`.
 */
export function useRedisCallEnds({ url, prefix = 'elicit:' }: { url: string; prefix?: string }): Operation<CallEnds> {
  return resource(function* (provide) {
    const redis = createStoreClient({ url, scripts: {}, store: "The sessions' store", Unavailable: SessionStoreUnavailableError })
    const { client, command } = redis
    const subscriber = redis.duplicate()
    const channel = `${prefix}call-ended`
    const listeners = createCallEndListeners()
    let subscribed = false
    // Back after a reconnect: what was announced meanwhile was not heard.
    subscriber.on('ready', () => {
      if (subscribed) listeners.tellAll()
    })
    yield* ensure(() => {
      client.destroy()
      subscriber.destroy()
    })
    yield* redis.connect(subscriber)
    yield* until(
      subscriber.subscribe(channel, (message) => {
        const heard = parse(message)
        if (heard) listeners.tell(heard.clientId, heard.callId)
      }),
    )
    subscribed = true
    const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS })
    yield* provide({
      *announce(clientId, callId) {
        yield* command(() => timed.publish(channel, JSON.stringify({ clientId, callId })))
      },
      listen: listeners.listen,
    })
  })
}

function parse(message: string): { clientId: string; callId: string } | undefined {
  try {
    const value = JSON.parse(message) as { clientId?: unknown; callId?: unknown }
    return typeof value.clientId === 'string' && typeof value.callId === 'string' ? { clientId: value.clientId, callId: value.callId } : undefined
  } catch {
    return undefined
  }
}
