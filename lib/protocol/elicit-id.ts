/** The structured identity of one elicitation; `seq` counts the tool's ctx calls from 1. */
export interface ElicitId {
  toolName: string
  key: string
  callId: string
  seq: number
}

/**
 * An elicit id as an answer names it, read once where the answer arrives (`readElicitId`) and
 * carried inward as is: the text it was sent as (what a refusal quotes, what is compared with the
 * question's own), and its parts when it is well formed. A malformed one is not refused here: the
 * question it reaches refuses it as not its own.
 */
export interface NamedElicitId {
  readonly text: string
  readonly id: ElicitId | undefined
}

/** The wire form of an elicitation's identity: `toolName/key/callId/seq`. */
export function formatElicitId({ toolName, key, callId, seq }: ElicitId): string {
  return `${toolName}/${key}/${encodeURIComponent(callId)}/${seq}`
}

/** The one parser of the wire form: its parts, or undefined when it is not an elicit id. */
export function parseElicitId(elicitId: string): ElicitId | undefined {
  const parts = elicitId.split('/')
  if (parts.length !== 4) return undefined
  const [toolName, key, encodedCallId, seqText] = parts
  const seq = Number(seqText)
  if (!toolName || !key || !encodedCallId || !Number.isInteger(seq) || seq < 1) return undefined
  try {
    return { toolName, key, callId: decodeURIComponent(encodedCallId), seq }
  } catch {
    return undefined
  }
}

/** An elicit id read off the wire, where an answer arrives (see `NamedElicitId`). */
export function readElicitId(text: string): NamedElicitId {
  return { text, id: parseElicitId(text) }
}
