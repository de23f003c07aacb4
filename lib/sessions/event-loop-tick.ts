import { action, type Operation } from 'effection'

/**
 * Wait for the next tick of the event loop (`setImmediate`), after every promise already settled
 * has run on: what a tool does at once with a result happens by then, so the result can be
 * written together with it. Not a chat turn: the name says which turn.
 */
export function eventLoopTick(): Operation<void> {
  return action<void>((resolve) => {
    const immediate = setImmediate(resolve)
    return () => clearImmediate(immediate)
  })
}
