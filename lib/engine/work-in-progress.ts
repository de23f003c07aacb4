import { createHash } from 'node:crypto'
import type { Work } from '../http/admission'
import type { CallIdIssuer } from './call-ids'

/** Tells a request that continues a client's work in progress from new work, before it is parsed. */
export interface WorkInProgress {
  /** `continue` when every answer and Stop in `body` names a tool call issued to `clientId`, not seen before here; else `new`. */
  workOf(body: unknown, clientId: string): Work
}

/** Different answers one question may get priority for on one instance (a corrected answer after a refusal). */
const ANSWERS_PER_QUESTION = 3

/**
 * Work in progress is recognised from what the chat contract already carries: the `sessionId`
 * of each answer (`pluginElicitResponses`) and of a Stop (`pluginAbort`) is a tool call id the
 * server issued, tagged with an HMAC of the client's identity (call-ids.ts). One HMAC per id,
 * no store, no parse of the conversation: cheap enough to run on every request under load.
 *
 * Invariants: a request is `continue` only if it answers or stops something and every session
 * it names was issued to this client, so a forged id, or another browser's, is new work; the
 * same answer (same question, same content) or the same Stop gets priority once per instance,
 * and one question at most `ANSWERS_PER_QUESTION` different answers, so a stale answer sent
 * again is new work too. (Across instances a replay may get priority once on each; every
 * request still counts against its address's own limits, and the session store refuses it.)
 * Memory: at most `maxRemembered` questions, the oldest forgotten first.
 */
export function createWorkInProgress({ callIds, maxRemembered = 100_000 }: { callIds: CallIdIssuer; maxRemembered?: number }): WorkInProgress {
  const granted = new Map<string, Set<string>>()
  return {
    workOf(body, clientId) {
      if (typeof body !== 'object' || body === null) return 'new'
      const { pluginElicitResponses: answers, pluginAbort: abort } = body as { pluginElicitResponses?: unknown; pluginAbort?: unknown }
      const claims: Array<{ question: string; answer: string }> = []
      if (abort !== undefined) {
        const sessionId = (abort as { sessionId?: unknown } | null)?.sessionId
        if (typeof sessionId !== 'string' || !callIds.issuedTo(sessionId, clientId)) return 'new'
        claims.push({ question: `stop\0${sessionId}`, answer: '' })
      }
      if (answers !== undefined) {
        if (!Array.isArray(answers) || answers.length > 32) return 'new'
        for (const answer of answers as unknown[]) {
          const { sessionId, elicitId, result } = (answer ?? {}) as { sessionId?: unknown; elicitId?: unknown; result?: unknown }
          if (typeof sessionId !== 'string' || typeof elicitId !== 'string' || elicitId.length > 500 || !callIds.issuedTo(sessionId, clientId)) return 'new'
          claims.push({ question: `${sessionId}\0${elicitId}`, answer: createHash('sha256').update(JSON.stringify(result) ?? '').digest('base64url') })
        }
      }
      if (claims.length === 0) return 'new'
      for (const { question, answer } of claims) {
        const seen = granted.get(question)
        if (seen && (seen.has(answer) || seen.size >= ANSWERS_PER_QUESTION)) return 'new'
      }
      for (const { question, answer } of claims) {
        const seen = granted.get(question) ?? new Set()
        granted.delete(question)
        if (granted.size >= maxRemembered) granted.delete(granted.keys().next().value!)
        granted.set(question, seen.add(answer))
      }
      return 'continue'
    },
  }
}
