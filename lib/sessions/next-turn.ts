import { action, type Operation } from 'effection'

/** The next turn of the event loop, after every promise already settled has run on. */
export function nextTurn(): Operation<void> {
  return action<void>((resolve) => {
    const immediate = setImmediate(resolve)
    return () => clearImmediate(immediate)
  })
}
