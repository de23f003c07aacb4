import { createQueue, run, spawn, useAbortSignal, type Operation } from 'effection'
import type { ComponentType } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { ElicitAnswer } from '../tools/types'
import { makePlugin } from './make-plugin'
import { createPluginClientContext, executePluginElicitHandler, type RenderedComponent } from './plugin-executor'
import { createPluginRegistry } from './plugin-registry'
import type { Question } from '../protocol/question'
import type { ElicitProps } from './types'

const paintTool = createMcpTool('paint_wall')
  .elicits({
    pickPaint: { response: z.object({ paint: z.string() }), context: z.object({ wall: z.string(), paints: z.array(z.string()) }) },
    confirm: z.object({ ok: z.boolean() }),
  })
  .execute(function* () {})

/** Shows every prop it gets, as a person would read them, so a test can see what the chat passed. */
function PaintPicker({ message, context, choices, defaults, respond, disabled, answered }: ElicitProps<typeof paintTool, 'pickPaint'>) {
  return (
    <section aria-label={message} data-respond={typeof respond}>
      <p>{`${context.wall}: ${context.paints.join(', ')}`}</p>
      <p>{`choices ${JSON.stringify(choices)}`}</p>
      <p>{`starts from ${defaults?.paint ?? 'nothing'}`}</p>
      <p>{disabled ? 'disabled' : 'enabled'}</p>
      <p>{answered ? `answered ${JSON.stringify(answered)}` : 'not answered'}</p>
    </section>
  )
}

function Confirm(_props: ElicitProps<typeof paintTool, 'confirm'>) {
  return null
}

const paintPlugin = makePlugin<typeof paintTool>('paint_wall').onElicit({ pickPaint: PaintPicker, confirm: Confirm }).build()
const registry = createPluginRegistry([paintPlugin])

function requestFor(choices: Question['choices'] = {}, defaults: Question['defaults'] = {}): Question {
  const context = { wall: 'North wall', paints: ['white', 'teal'] }
  return {
    elicitId: 'paint_wall/pickPaint/call-1/1',
    sessionId: 'call-1',
    toolName: 'paint_wall',
    key: 'pickPaint',
    callId: 'call-1',
    message: 'Which paint?',
    schema: { type: 'object' },
    context,
    choices,
    defaults,
  }
}

/** Run the key's handler as the chat does, collecting what it shows. */
function* startHandler(request: Question, recorded?: unknown[]) {
  const shows = createQueue<RenderedComponent, never>()
  const shown: RenderedComponent[] = []
  const task = yield* spawn(function* (): Operation<ElicitAnswer<unknown>> {
    const signal = yield* useAbortSignal()
    const ctx = createPluginClientContext({
      request,
      signal,
      recorded,
      show(rendered) {
        shown.push(rendered)
        shows.add(rendered)
      },
    })
    return yield* executePluginElicitHandler({ registry, request, ctx })
  })
  return {
    task,
    shown,
    *nextShow(): Operation<RenderedComponent> {
      const next = yield* shows.next()
      if (next.done) throw new Error('no more renders')
      return next.value
    },
  }
}

/** What the chat's tool card renders for a shown component (as `ElicitationView` does). */
function markupOf(rendered: RenderedComponent, live: boolean): string {
  const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
  return renderToStaticMarkup(<Rendered {...rendered.props} onRespond={rendered.respond} disabled={!live} response={rendered.response} />)
}

describe('a question registered with a component', () => {
  it('is listed among the plugin’s components as the component itself, and answered by a handler of its own', () => {
    expect(paintPlugin.components).toEqual({ pickPaint: PaintPicker, confirm: Confirm })
    expect(Object.keys(paintPlugin.handlers).sort()).toEqual(['confirm', 'pickPaint'])
    expect(paintPlugin.handlers.pickPaint).not.toBe(PaintPicker)
  })

  it('renders with the message, the context, the choices, and respond; it answers with what respond gets', async () => {
    const choices = { paint: [{ value: 'teal', title: 'Teal (matt)' }] }
    const result = await run(function* () {
      const handler = yield* startHandler(requestFor(choices))
      const rendered = yield* handler.nextShow()
      const html = markupOf(rendered, true)
      expect(html).toContain('aria-label="Which paint?"')
      expect(html).toContain('data-respond="function"')
      expect(html).toContain('North wall: white, teal')
      expect(html).toContain(`choices ${JSON.stringify(choices).replaceAll('"', '&quot;')}`)
      expect(html).toContain('enabled')
      expect(html).toContain('not answered')

      rendered.respond({ action: 'accept', content: { paint: 'teal' } })
      const answered = yield* handler.nextShow()
      expect(answered).toMatchObject({ answered: true, response: { action: 'accept', content: { paint: 'teal' } } })
      const after = markupOf(answered, false)
      expect(after).toContain('disabled')
      expect(after).toContain(`answered ${JSON.stringify({ action: 'accept', content: { paint: 'teal' } }).replaceAll('"', '&quot;')}`)

      // Once only: a second answer changes nothing.
      rendered.respond({ action: 'decline' })
      return yield* handler.task
    })
    expect(result).toEqual({ action: 'accept', content: { paint: 'teal' } })
  })

  it('gives the question’s defaults, what the component starts from', async () => {
    await run(function* () {
      const handler = yield* startHandler(requestFor({}, { paint: 'teal' }))
      const rendered = yield* handler.nextShow()
      expect(markupOf(rendered, true)).toContain('starts from teal')
      rendered.respond({ action: 'decline' })
      yield* handler.task
    })
  })

  it('gives no choices and no defaults when the question has none', async () => {
    await run(function* () {
      const handler = yield* startHandler(requestFor())
      const rendered = yield* handler.nextShow()
      expect(rendered.props).toMatchObject({ message: 'Which paint?', choices: {}, defaults: {} })
      expect(markupOf(rendered, true)).toContain('choices {}')
      expect(markupOf(rendered, true)).toContain('starts from nothing')
      rendered.respond({ action: 'decline' })
      expect(yield* handler.task).toEqual({ action: 'decline' })
    })
  })

  it('shows a recorded answer again at once after a reload, disabled, and answers with it', async () => {
    const recorded = [{ action: 'cancel' }]
    const result = await run(function* () {
      const handler = yield* startHandler(requestFor(), recorded)
      const rendered = yield* handler.nextShow()
      expect(rendered).toMatchObject({ answered: true, response: { action: 'cancel' } })
      expect(markupOf(rendered, false)).toContain('answered {&quot;action&quot;:&quot;cancel&quot;}')
      return yield* handler.task
    })
    expect(result).toEqual({ action: 'cancel' })
  })

  it('shows a stopped question disabled with no answer, and a late respond does nothing', async () => {
    await run(function* () {
      const handler = yield* startHandler(requestFor())
      const rendered = yield* handler.nextShow()
      yield* handler.task.halt()
      rendered.respond({ action: 'accept', content: { paint: 'white' } })
      expect(handler.shown).toHaveLength(1)
      const html = markupOf(rendered, false)
      expect(html).toContain('disabled')
      expect(html).toContain('not answered')
    })
  })
})
