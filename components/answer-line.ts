import type { ElicitationEntry } from '@/lib/client'
import { describeAnswer, type AnswerPart } from '@/lib/protocol/question-form'
import { promptOf } from './kit/QuestionPanel'

/**
 * A question no longer open, in one line: what was asked and what was answered, each part by
 * its field's title ("Seat" "10A · window"), or what became of it ("Flight" "Declined").
 */
export interface AnswerLine {
  outcome: 'answered' | 'declined' | 'cancelled' | 'unanswered'
  parts: AnswerPart[]
}

/**
 * The one line a question folds to once answered (or stopped), said in the words of its form:
 * the titles of its fields and of the choices made — the same words a native form shows, so
 * every question gets one without its plugin saying how. A question without field titles (a
 * chat stored before they were sent) is named by its prompt.
 */
export function answerLine(elicitation: ElicitationEntry): AnswerLine {
  const { result, question } = elicitation
  const { fieldTitles, choices, choiceAnswers } = question
  if (result?.action === 'accept') {
    const response = isRecord(result.content) ? result.content : { answer: result.content }
    return { outcome: 'answered', parts: describeAnswer({ response, fieldTitles, choices, choiceAnswers }).map(withoutEcho) }
  }
  const asked = Object.values(fieldTitles ?? {}).join(' · ') || promptOf(question.message)
  const outcome = result?.action === 'decline' ? 'declined' : result?.action === 'cancel' ? 'cancelled' : 'unanswered'
  const value = { declined: 'Declined', cancelled: 'Cancelled', unanswered: elicitation.status === 'stopped' ? 'Stopped before an answer' : 'Not answered' }[outcome]
  return { outcome, parts: [{ title: asked, value }] }
}

/** A choice whose title already starts with its field's ("Card" → "Card 2: Queen of Hearts") is said once. */
function withoutEcho(part: AnswerPart): AnswerPart {
  const title = part.title.trim()
  const echoes = part.value.toLowerCase().startsWith(title.toLowerCase()) && !/[\p{L}\p{N}]/u.test(part.value.charAt(title.length))
  return echoes ? { title: '', value: part.value } : part
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
