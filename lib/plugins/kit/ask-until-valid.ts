import type { Operation } from 'effection'
import type { ElicitResult } from '../../tools'

/** What `check` says of an answer: the value to go on with, or why it cannot be used. */
export type AnswerCheck<TValue> = { value: TValue; problem?: never } | { problem: string; value?: never }

/** The outcome of `askUntilValid`: a usable value (with the answer that gave it), or the user said no. */
export type ValidAnswer<TValue, TAnswer> = { action: 'accept'; value: TValue; answer: TAnswer } | { action: 'decline' | 'cancel' }

/**
 * Ask, and ask again with the problem until an answer is usable: a flight that was offered, a
 * free seat, an empty cell. The schema has already checked the answer's shape; `check` is for
 * what only the tool knows. A decline or cancel ends it. Every question is a numbered ctx call,
 * so a replayed session asks the same questions.
 *
 * @example
 * const seat = yield* askUntilValid({
 *   ask: (problem) => ctx.elicit('pickSeat', { message: problem ?? 'Select your seat:', seatMap }),
 *   check: ({ row, seat }) => (isFree(row, seat) ? { value: `${row}${seat}` } : { problem: `Seat ${row}${seat} is taken.` }),
 * })
 * if (seat.action !== 'accept') return { status: 'cancelled' }
 */
export function* askUntilValid<TContext, TResponse, TValue>({
  ask,
  check,
  onProblem,
}: {
  /** One question; `problem` is undefined the first time, then says what was wrong with the last answer. */
  ask(problem: string | undefined): Operation<ElicitResult<TContext, TResponse>>
  check(content: TResponse): AnswerCheck<TValue>
  /** Called with each problem (and the answer that had it) before asking again, e.g. to `ctx.log` it. */
  onProblem?(problem: string, content: TResponse): Operation<void>
}): Operation<ValidAnswer<TValue, Extract<ElicitResult<TContext, TResponse>, { action: 'accept' }>>> {
  let problem: string | undefined
  for (;;) {
    const answer = yield* ask(problem)
    if (answer.action !== 'accept') return { action: answer.action }
    const checked = check(answer.content)
    if (checked.problem === undefined) return { action: 'accept', value: checked.value as TValue, answer }
    problem = checked.problem
    if (onProblem) yield* onProblem(problem, answer.content)
  }
}
