/**
 * x-model-context: the context a tool passes to `ctx.elicit` travels twice, in the JSON
 * Schema under `x-model-context` and after a MIME-style boundary at the end of the message,
 * so that a client whose transport strips unknown schema keywords still receives it.
 */
export const MODEL_CONTEXT_KEY = 'x-model-context'
export const MODEL_CONTEXT_BOUNDARY = '--x-model-context: application/json'

export type ModelContext = Record<string, unknown>

export interface EncodedElicitation {
  message: string
  schema: Record<string, unknown>
}

export function encodeModelContext({
  message,
  schema,
  context,
}: {
  message: string
  schema: Record<string, unknown>
  context: ModelContext
}): EncodedElicitation {
  if (Object.keys(context).length === 0) return { message, schema }
  return {
    message: `${message}\n\n${MODEL_CONTEXT_BOUNDARY}\n${JSON.stringify(context)}`,
    schema: { ...schema, [MODEL_CONTEXT_KEY]: context },
  }
}

export interface DecodedElicitation {
  /** The human-readable part of the message, without the encoded section. */
  message: string
  context: ModelContext
  /** Where the context was found. */
  source: 'schema' | 'message' | 'none'
}

/** Read the context: from the schema first, then from the message boundary. */
export function decodeModelContext({
  message,
  schema,
}: {
  message: string
  schema?: Record<string, unknown>
}): DecodedElicitation {
  const { text, encoded } = splitMessage(message)
  const fromSchema = schema?.[MODEL_CONTEXT_KEY]
  if (isRecord(fromSchema)) return { message: text, context: fromSchema, source: 'schema' }
  if (encoded !== undefined) {
    try {
      const parsed: unknown = JSON.parse(encoded)
      if (isRecord(parsed)) return { message: text, context: parsed, source: 'message' }
    } catch {
      // A damaged encoded section leaves the human-readable message intact.
    }
  }
  return { message: text, context: {}, source: 'none' }
}

function splitMessage(message: string): { text: string; encoded?: string } {
  const at = message.lastIndexOf(`\n${MODEL_CONTEXT_BOUNDARY}\n`)
  if (at === -1) {
    if (message.startsWith(`${MODEL_CONTEXT_BOUNDARY}\n`)) {
      return { text: '', encoded: message.slice(MODEL_CONTEXT_BOUNDARY.length + 1) }
    }
    return { text: message }
  }
  return {
    text: message.slice(0, at).trimEnd(),
    encoded: message.slice(at + MODEL_CONTEXT_BOUNDARY.length + 2),
  }
}

function isRecord(value: unknown): value is ModelContext {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
