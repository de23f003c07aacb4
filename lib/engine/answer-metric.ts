import type { AnswersOutcome } from '../sessions'

/**
 * What became of an answer to a waiting tool, as the operator counts it (`elicit_answers_total`):
 * recorded and resumed from memory (`resumed_hot`) or by a replay of its journal (`replayed`);
 * not fitting its question (`rejected`); refused with a 409 (`refused`: a second delivery, another
 * question); too late, its session expired (`expired`), ended otherwise (`ended`: a Stop, an
 * operator, the tool's own end), or gone (`lost`).
 */
export type AnswerMetricOutcome = 'resumed_hot' | 'replayed' | 'rejected' | 'refused' | 'expired' | 'ended' | 'lost'

/** One outcome per answer of a request: a refusal refuses each of them. */
export function answerMetricOutcomes(answered: AnswersOutcome, answers: number): AnswerMetricOutcome[] {
  if (answered.kind === 'refused') return Array.from({ length: answers }, () => 'refused' as const)
  return answered.outcomes.map((outcome): AnswerMetricOutcome => {
    switch (outcome.kind) {
      case 'accepted':
        return outcome.from === 'memory' ? 'resumed_hot' : 'replayed'
      case 'rejected':
        return 'rejected'
      case 'ended':
        return 'ended'
      case 'lost':
        return outcome.expired ? 'expired' : outcome.error === 'SESSION_ABORTED' ? 'ended' : 'lost'
    }
  })
}
