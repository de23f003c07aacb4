/**
 * A question in a chat kept (or exported) before its context was a field of its own. Such a
 * `plugin_elicit_request` carried the context twice, encoded into two other fields: under
 * `x-model-context` in its `schema`, and as one line of JSON after a boundary line at the end of
 * its `message`. What reads a kept chat (its store, an import) reads such an event once, here,
 * into the question as it travels now (`Question`); nothing else knows the old encoding.
 */

const EARLIER_CONTEXT_KEY = 'x-model-context'
const EARLIER_BOUNDARY = '--x-model-context: application/json'

/**
 * `event` as it travels now: a `plugin_elicit_request` without a `context` gets the one its
 * `schema` (first) or its `message` carried, and loses the encoded copies; a context that cannot be
 * read is `{}`, and the message for people is kept. Any other value is returned as it is.
 */
export function readKeptEvent<T>(event: T): T {
  if (!isRecord(event) || event.type !== 'plugin_elicit_request' || 'context' in event || typeof event.message !== 'string') return event
  const { [EARLIER_CONTEXT_KEY]: fromSchema, ...schema } = isRecord(event.schema) ? event.schema : {}
  const { text, encoded } = splitMessage(event.message)
  const context = isRecord(fromSchema) ? fromSchema : (parseObject(encoded) ?? {})
  return { ...event, message: text, schema, context } as T
}

function parseObject(encoded: string | undefined): Record<string, unknown> | undefined {
  if (encoded === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(encoded)
    return isRecord(parsed) ? parsed : undefined
  } catch {
    // A damaged encoded section leaves the message for people intact.
    return undefined
  }
}

/** The message for people, and the encoded context after the last boundary line, if any. */
function splitMessage(message: string): { text: string; encoded?: string } {
  const at = message.lastIndexOf(`\n${EARLIER_BOUNDARY}\n`)
  if (at === -1) {
    if (message.startsWith(`${EARLIER_BOUNDARY}\n`)) return { text: '', encoded: message.slice(EARLIER_BOUNDARY.length + 1) }
    return { text: message }
  }
  return { text: message.slice(0, at).trimEnd(), encoded: message.slice(at + EARLIER_BOUNDARY.length + 2) }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
