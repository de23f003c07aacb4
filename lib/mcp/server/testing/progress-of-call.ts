import { expect } from 'vitest'
import { PROGRESS_TOTAL } from '../progress-sequence'
import { connectBookingClient, type Answer, type Asked, type Era } from './booking-client'

export type ProgressUpdate = { progress: number; total?: number; message?: string }

/**
 * Call `name` at `url` with an official v2 client of `era` that answers with `answers` in turn:
 * the call's result, the progress it reported in order (the 2026 driver's own "Fulfilling …"
 * reports left out), what it was asked, and the client, for the caller to close.
 */
export async function callWithProgress({
  url,
  era,
  name,
  args,
  answers,
}: {
  url: URL
  era: Era
  name: string
  args: Record<string, unknown>
  answers: ((asked: Asked) => Answer)[]
}) {
  const connected = await connectBookingClient({ url, era, answer: (asked, index) => answers[index]!(asked) })
  const progress: ProgressUpdate[] = []
  const result = await connected.client.callTool({ name, arguments: args }, {
    onprogress: (update) => void (update.message?.startsWith('Fulfilling') || progress.push(update)),
  })
  return { result, progress, asked: connected.asked, client: connected.client }
}

/** What every call's progress must be over MCP: strictly increasing values, each of the total, the last the total. */
export function expectIncreasingToTotal(progress: ProgressUpdate[]) {
  const values = progress.map((update) => update.progress)
  expect(values.length).toBeGreaterThan(0)
  for (let index = 1; index < values.length; index++) expect(values[index], `value ${index} of ${values.join(', ')}`).toBeGreaterThan(values[index - 1]!)
  expect(new Set(values).size).toBe(values.length)
  expect(progress.every((update) => update.total === PROGRESS_TOTAL && update.progress <= PROGRESS_TOTAL)).toBe(true)
  expect(values.at(-1)).toBe(PROGRESS_TOTAL)
}
