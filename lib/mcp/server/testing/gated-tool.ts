import type { Operation } from 'effection'
import { z } from 'zod'
import { createCode } from '@/lib/plugins/kit'
import { createMcpTool, field, question } from '@/lib/tools'

/**
 * A fixture tool whose one effect waits at a gate its test holds: `reserve_table` asks for a
 * time, has the app's model write a welcome note (the client's model, when it samples), then
 * reserves the table in a journaled step (the reservation code is drawn there), and that step
 * first passes `gate`. A test makes a round slow with it (a gate that takes its time), or cuts it
 * where a crash would (a gate that never opens, or a model that never answers, in a process then
 * killed).
 */
export function createGatedTool(gate: () => Operation<void>) {
  return createMcpTool('reserve_table')
    .description('Reserve a table: asks for a time, then reserves it.')
    .parameters(z.object({ guests: z.number().int().min(1).max(12) }))
    .elicits({
      pickTime: question({
        response: z.object({ time: z.string().meta({ title: 'Time' }) }),
        context: z.object({ guests: z.number() }),
        form: () => ({ time: field.choice('Time', [{ value: '19:00', title: '19:00' }, { value: '20:00', title: '20:00' }]) }),
      }),
    })
    .execute(function* ({ guests }, ctx): Operation<{ status: 'reserved'; time: string; note: string; code: string } | { status: 'cancelled' }> {
      const time = yield* ctx.elicit('pickTime', { message: `At what time, for ${guests}?`, guests })
      if (time.action !== 'accept') return { status: 'cancelled' }
      const { text: note } = yield* ctx.sample({ prompt: `Write a one-line welcome note for a table of ${guests} at ${time.content.time}.` })
      const code = yield* ctx.step('reserve', function* () {
        yield* gate()
        return createCode({ prefix: 'TBL-', length: 6 })
      })
      return { status: 'reserved', time: time.content.time, note, code }
    })
}
