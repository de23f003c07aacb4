import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools'
import { ReplayDivergenceError } from './errors'
import { ToolJournal, type JournalEntry } from './journal'
import { createJournalingClient, type ToolEvent } from './journaling-client'
import { runTool } from './run-tool'

const entries: JournalEntry[] = [
  { seq: 2, kind: 'elicit', key: 'pick', answer: { action: 'accept', content: { n: 1 } } },
  { seq: 3, kind: 'sample', text: 'hello' },
  { seq: 4, kind: 'step', name: 'id', value: 'A-1' },
]

describe('ToolJournal', () => {
  it('replays recorded calls up to its horizon and leaves later ones live', () => {
    const journal = new ToolJournal('t', entries)
    expect(journal.horizon).toBe(4)
    expect(journal.replayed(1, 'log')).toBe(true)
    expect(journal.replay(2, 'elicit', 'pick')).toMatchObject({ answer: { action: 'accept' } })
    expect(journal.replay(3, 'sample')).toMatchObject({ text: 'hello' })
    expect(journal.replay(4, 'step', 'id')).toMatchObject({ value: 'A-1' })
    expect(journal.replay(5, 'sample')).toBeUndefined()
    expect(journal.replayed(5, 'notify')).toBe(false)
  })

  it('names the call where a replay went another way', () => {
    const journal = new ToolJournal('book', entries)
    expect(() => journal.replay(3, 'step', 'id')).toThrow(ReplayDivergenceError)
    expect(() => journal.replay(3, 'step', 'id')).toThrow(/"book" went another way at ctx call 3: it asked for step 'id', but the journal recorded a model answer/)
    expect(() => journal.replay(2, 'elicit', 'other')).toThrow(/the answer to 'other', but the journal recorded the answer to 'pick'/)
    expect(() => journal.replay(1, 'sample')).toThrow(/the journal recorded a log or progress report/)
    expect(() => journal.replayed(4, 'log')).toThrow(/asked for a log, but the journal recorded step 'id'/)
  })
})

describe('a journaling client', () => {
  let coin = 0
  const flip = createMcpTool('flip')
    .parameters(z.object({}))
    .elicits({ pick: z.object({ n: z.number() }) })
    .execute(function* (_params, ctx) {
      yield* ctx.log('info', 'start')
      // Not journaled: differs from run to run, which is exactly what a replay must catch.
      if (coin++ % 2 === 1) return yield* ctx.sample({ prompt: 'heads?' })
      const answer = yield* ctx.elicit('pick', { message: 'Pick' })
      return answer
    })

  it('stops a replay that asks something other than what was recorded, with an error naming the call', async () => {
    coin = 0
    const journal = [{ seq: 2, kind: 'elicit' as const, key: 'pick', answer: { action: 'decline' as const } }]
    const events: ToolEvent[] = []
    const client = createJournalingClient({
      journal: new ToolJournal('flip', journal),
      // eslint-disable-next-line require-yield
      *sample() {
        throw new Error('a replay must not call the model for a recorded call')
      },
      // eslint-disable-next-line require-yield
      *record() {},
      // eslint-disable-next-line require-yield
      *ask() {
        throw new Error('a replay must not ask again')
      },
      emit: (event) => events.push(event),
    })
    expect(await run(() => runTool({ tool: flip, params: {}, client, callId: 'c1' }))).toEqual({ action: 'decline' })
    await expect(run(() => runTool({ tool: flip, params: {}, client, callId: 'c1' }))).rejects.toThrow(
      /"flip" went another way at ctx call 2: it asked for a model answer, but the journal recorded the answer to 'pick'/,
    )
    // The log before the recorded call was sent on the first run, so neither replay resends it.
    expect(events).toEqual([])
  })

  it('checks a recorded answer against the question like any other answer', async () => {
    coin = 0
    const journal = [{ seq: 2, kind: 'elicit' as const, key: 'pick', answer: { action: 'accept' as const, content: { n: 'one' } } }]
    const client = createJournalingClient({
      journal: new ToolJournal('flip', journal),
      // eslint-disable-next-line require-yield
      *sample() {
        throw new Error('unused')
      },
      // eslint-disable-next-line require-yield
      *record() {},
      // eslint-disable-next-line require-yield
      *ask() {
        throw new Error('unused')
      },
      emit: () => {},
    })
    await expect(run(() => runTool({ tool: flip, params: {}, client, callId: 'c1' }))).rejects.toThrow(/recorded answer to 'pick' is not valid: n:/)
  })
})
