import type { Operation } from 'effection'
import { z } from 'zod'
import { createMcpTool } from '../../../../tools'
import { question } from '../../../../tools/elicits'
import { field } from '../../../../tools/form-fields'
import { COLOURS, SIZES, type Colour, type Size } from './colors'

/**
 * A tool of the MCP Apps tests' own (the framework is tested on its fixtures): it asks for a
 * colour (a choice whose value is the answer) and a poster size (a choice whose value, "40x60",
 * stands for the answer `{ width, height }`), each answered by a component that is also an MCP App.
 */
export const paintPosterTool = createMcpTool('paint_poster')
  .description('Paint a poster: asks for its colour and its size.')
  .parameters(z.object({ title: z.string().min(1).max(64) }))
  .elicits({
    pickColour: question({
      response: z.object({ colour: z.string() }),
      context: z.object({ colours: z.array(z.object({ id: z.string(), name: z.string(), hex: z.string() })) }),
      form: ({ colours }) => ({ colour: field.choice('Colour', colours.map((colour) => ({ value: colour.id, title: colour.name }))) }),
    }),
    pickSize: question({
      response: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
      context: z.object({ sizes: z.array(z.object({ width: z.number(), height: z.number() })) }),
      form: ({ sizes }) => ({
        size: field.choice(
          'Size',
          sizes.map(({ width, height }) => ({ value: `${width}x${height}`, title: `${width} × ${height} cm`, answer: { width, height } })),
        ),
      }),
    }),
  })
  .execute(function* ({ title }, ctx): Operation<{ title: string; colour: Colour; size: Size } | { cancelled: true }> {
    const colourAnswer = yield* ctx.elicit('pickColour', { message: `Which colour for "${title}"?`, colours: COLOURS })
    if (colourAnswer.action !== 'accept') return { cancelled: true }
    const colour = COLOURS.find((candidate) => candidate.id === colourAnswer.content.colour)
    if (!colour) throw new Error(`No colour ${colourAnswer.content.colour}`)
    const sizeAnswer = yield* ctx.elicit('pickSize', { message: 'Which size?', sizes: SIZES })
    if (sizeAnswer.action !== 'accept') return { cancelled: true }
    return { title, colour, size: sizeAnswer.content }
  })
