import type { Operation } from 'effection'
import type { z } from 'zod'
import type { ElicitsMap } from './elicits'
import type { McpToolContext } from './types'

/**
 * A tool in three phases. `before` runs once, on the server, with whatever the server has
 * (secrets, databases): it is a journaled step, so a replayed session gets its recorded
 * result instead of running it again. Its JSON result crosses into `client`, which may
 * sample, elicit and branch; `after` gets `before`'s result and `client`'s, back on the server.
 */
export interface Handoff<TParams extends z.ZodType, TElicits extends ElicitsMap, THandoff, TClient, TResult> {
  before(params: z.output<TParams>): Operation<THandoff>
  client(handoff: THandoff, ctx: McpToolContext<TElicits>): Operation<TClient>
  after(handoff: THandoff, clientResult: TClient): Operation<TResult>
}

export class HandoffError extends Error {
  override name = 'HandoffError'
}

/** The three phases as one `execute`: a handoff tool is an ordinary tool to everything else. */
export function executeHandoff<TParams extends z.ZodType, TElicits extends ElicitsMap, THandoff, TClient, TResult>(
  toolName: string,
  phases: Handoff<TParams, TElicits, THandoff, TClient, TResult>,
) {
  return function* (params: z.output<TParams>, ctx: McpToolContext<TElicits>): Operation<TResult> {
    const handoff = yield* ctx.step('before', function* () {
      return toJsonData(yield* phases.before(params), `${toolName}: the result of before()`) as THandoff
    })
    const clientResult = yield* phases.client(handoff, ctx)
    return yield* phases.after(handoff, clientResult)
  }
}

/**
 * A deep, frozen copy of a JSON value. Anything that cannot cross a wire (a function, a
 * class instance, `undefined` in an array, a non-finite number, a cycle) is an error that
 * names the path, rather than data silently lost on the way.
 */
export function toJsonData(value: unknown, what: string): unknown {
  return copy(value, what, '$', new Set())
}

function copy(value: unknown, what: string, path: string, seen: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value
    throw new HandoffError(`${what} is not JSON-serialisable: ${path} is ${value}.`)
  }
  if (value === undefined) throw new HandoffError(`${what} is not JSON-serialisable: ${path} is undefined.`)
  if (typeof value !== 'object') {
    throw new HandoffError(`${what} is not JSON-serialisable: ${path} is a ${typeof value}.`)
  }
  if (seen.has(value)) throw new HandoffError(`${what} is not JSON-serialisable: ${path} refers back to itself.`)
  seen.add(value)
  try {
    if (Array.isArray(value)) {
      return Object.freeze(value.map((item, index) => copy(item, what, `${path}[${index}]`, seen)))
    }
    const prototype = Object.getPrototypeOf(value)
    if (prototype !== Object.prototype && prototype !== null) {
      const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object'
      throw new HandoffError(`${what} is not JSON-serialisable: ${path} is a ${kind}, not plain data.`)
    }
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue
      result[key] = copy(item, what, `${path}.${key}`, seen)
    }
    return Object.freeze(result)
  } finally {
    seen.delete(value)
  }
}
