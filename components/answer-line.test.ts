import { describe, expect, it } from 'vitest'
import type { ElicitationEntry } from '@/lib/client'
import type { Question } from '@/lib/protocol'
import { answerLine } from './answer-line'

const seatQuestion: Question = {
  sessionId: 'call-1',
  callId: 'call-1',
  elicitId: 'book_flight/pickSeat/call-1/5',
  toolName: 'book_flight',
  key: 'pickSeat',
  message: 'Select your seat on SH 769: 52 of 60 seats are free.',
  schema: {},
  context: { seatMap: {} },
  choices: { seat: [{ value: '10A', title: '10A · window' }, { value: '10B', title: '10B · middle' }] },
  fieldTitles: { seat: 'Seat' },
  choiceAnswers: { seat: { '10A': { row: 10, seat: 'A' }, '10B': { row: 10, seat: 'B' } } },
}

/** The seat question, its form changed as given. */
const withQuestion = (entry: ElicitationEntry, change: Partial<Question>): ElicitationEntry => ({ ...entry, question: { ...entry.question, ...change } })

const seat: ElicitationEntry = {
  question: seatQuestion,
  attempt: 1,
  status: 'closed',
  answers: [],
  result: { action: 'accept', content: { row: 10, seat: 'A' } },
}

describe('answerLine', () => {
  it('says what was asked and what was answered in the words of the question’s form', () => {
    expect(answerLine(seat)).toEqual({ outcome: 'answered', parts: [{ title: 'Seat', value: '10A · window' }] })
  })

  it('says a choice whose title starts with its field’s title once', () => {
    const card = {
      ...withQuestion(seat, {
        choices: { cardNumber: [{ value: '2', title: 'Card 2: Queen of Hearts (Q♥)' }] },
        fieldTitles: { cardNumber: 'Card' },
        choiceAnswers: { cardNumber: { '2': { cardNumber: 2 } } },
      }),
      result: { action: 'accept' as const, content: { cardNumber: 2 } },
    }
    expect(answerLine(card).parts).toEqual([{ title: '', value: 'Card 2: Queen of Hearts (Q♥)' }])
    // A title that only begins the same letters is kept: "Cardigan" is not "Card".
    expect(answerLine(withQuestion(card, { choices: { cardNumber: [{ value: '2', title: 'Cardigan, blue' }] } })).parts[0]!.title).toBe('Card')
  })

  it('says a question declined, cancelled or left unanswered by what was asked', () => {
    expect(answerLine({ ...seat, result: { action: 'decline' } })).toEqual({ outcome: 'declined', parts: [{ title: 'Seat', value: 'Declined' }] })
    expect(answerLine({ ...seat, result: { action: 'cancel' } }).parts[0]!.value).toBe('Cancelled')
    expect(answerLine({ ...seat, status: 'stopped', result: undefined })).toEqual({ outcome: 'unanswered', parts: [{ title: 'Seat', value: 'Stopped before an answer' }] })
    expect(answerLine({ ...seat, result: undefined }).parts[0]!.value).toBe('Not answered')
  })

  it('names a question without field titles (a chat stored before they were sent) by its prompt', () => {
    expect(answerLine({ ...withQuestion(seat, { fieldTitles: {} }), result: { action: 'decline' } }).parts).toEqual([
      { title: 'Select your seat on SH 769: 52 of 60 seats are free.', value: 'Declined' },
    ])
    expect(answerLine(withQuestion(seat, { fieldTitles: {}, choiceAnswers: {} })).parts).toEqual([
      { title: 'row', value: '10' },
      { title: 'seat', value: 'A' },
    ])
  })
})
