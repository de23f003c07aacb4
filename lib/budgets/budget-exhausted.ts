import { ChatRequestError } from '../http/errors'

/**
 * The refusal of a new message when its account has used today's model budget: a 429
 * `budget_exhausted`, with `resetsAt` (ISO time) in its JSON and the seconds until then as
 * `Retry-After`. A `ChatRequestError` like every refusal of the chat, so that it takes the one
 * path to a response (`toChatFailure`).
 */
export class BudgetExhaustedError extends ChatRequestError {
  constructor(
    readonly limit: number,
    readonly resetsAt: Date,
    now: number,
  ) {
    const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now) / 1000))
    super(
      'budget_exhausted',
      `You have used today's model budget (${limit.toLocaleString('en-US')} tokens). It resets at 00:00 UTC (in ${describeWait(seconds)}).`,
      undefined,
      seconds,
    )
  }

  protected override details(): Record<string, unknown> {
    return { resetsAt: this.resetsAt.toISOString() }
  }
}

/** "3 h 12 min", "12 min", "1 min": how long until the reset, in whole minutes rounded up. */
export function describeWait(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`
}
