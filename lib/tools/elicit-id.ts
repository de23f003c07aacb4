import type { ElicitId } from './types'

/** The wire form of an elicitation's identity: `toolName/key/callId/seq`. */
export function formatElicitId({ toolName, key, callId, seq }: ElicitId): string {
  return `${toolName}/${key}/${encodeURIComponent(callId)}/${seq}`
}

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
