import { createQueue, run } from 'effection'
import type { ComponentType } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { allElicitations, initialChatState, reduceChat } from '@/lib/client/chat-state'
import { createChatServer, type ChatServer } from '@/lib/engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel, type OfflineSkill } from '@/lib/models'
import { createPluginClientContext, createPluginRegistry, executePluginElicitHandler, makePlugin, type ElicitProps, type RenderedComponent } from '@/lib/plugins'
import { createMcpTool, field, question } from '@/lib/tools'

/*
 * A question whose context has keys named as the question's own fields (`key`, `choices`,
 * `schema`, `defaults`, `context`, `type`, and a `message` inside), from the tool that asks it
 * to the component that shows it: through the real chat engine, the NDJSON line, the chat's
 * reducer and the plugin's handler. Each is the context's, beside the question's own.
 */

const noteContext = z.object({
  key: z.string(),
  choices: z.array(z.string()),
  schema: z.string(),
  defaults: z.string(),
  type: z.string(),
  context: z.object({ message: z.string() }),
})
const context: z.infer<typeof noteContext> = {
  key: 'the context’s key',
  choices: ['the context’s first', 'the context’s second'],
  schema: 'the context’s schema',
  defaults: 'the context’s defaults',
  type: 'the context’s type',
  context: { message: 'the context’s own message' },
}

const noteTool = createMcpTool('pick_note')
  .description('Asks for a note.')
  .parameters(z.object({}))
  .elicits({
    pickNote: question({
      response: z.object({ note: z.enum(['first', 'second']) }),
      context: noteContext,
      form: () => ({ note: field.choice('Note', [{ value: 'first', title: 'The first note' }, { value: 'second', title: 'The second note' }]) }),
    }),
  })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('pickNote', { message: 'Which note?', ...context })
    return answer.action === 'accept' ? { note: answer.content.note } : { note: null }
  })

/** Shows every prop it gets, as a person would read them. */
function NotePicker({ message, context: given, choices }: ElicitProps<typeof noteTool, 'pickNote'>) {
  return (
    <section aria-label={message}>
      <pre data-testid="context">{JSON.stringify(given)}</pre>
      <p>{`choices ${JSON.stringify(choices)}`}</p>
    </section>
  )
}

const registry = createPluginRegistry([makePlugin<typeof noteTool>('pick_note').onElicit({ pickNote: NotePicker }).build()])
const callsNote: OfflineSkill = { toolName: 'pick_note', example: 'note', recognise: () => ({ confidence: 1, text: 'Asking.', calls: [{}] }) }

let chat: ChatServer
let client: ChatTestClient
beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [callsNote] }), tools: [noteTool] })
  client = createChatTestClient({ chat })
})
afterEach(() => chat.close())

describe('a context whose keys are named as the question’s own fields', () => {
  it('reaches the component intact, beside the question’s own message and choices, and the answer reaches the tool', async () => {
    const [event] = elicitRequests((await client.say('A note, please')).events)
    expect(event).toMatchObject({ type: 'plugin_elicit_request', key: 'pickNote', message: 'Which note?', context })

    // The chat keeps the question as it arrived; its handler renders the component with it.
    const [kept] = allElicitations(reduceChat(initialChatState, event!))
    expect(kept!.question.context).toEqual(context)
    const shows = createQueue<RenderedComponent, never>()
    const request = kept!.question
    const answer = run(() => executePluginElicitHandler({ registry, request, ctx: createPluginClientContext({ request, signal: new AbortController().signal, show: (shown) => shows.add(shown) }) }))
    const rendered = await run(function* () {
      return (yield* shows.next()).value
    })
    const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
    const html = renderToStaticMarkup(<Rendered {...rendered.props} onRespond={rendered.respond} disabled={false} />)

    expect(html).toContain('aria-label="Which note?"')
    const shown = /<pre data-testid="context">(.*?)<\/pre>/.exec(html)![1]!.replaceAll('&quot;', '"')
    expect(JSON.parse(shown)).toEqual(context)
    const choices = { note: [{ value: 'first', title: 'The first note' }, { value: 'second', title: 'The second note' }] }
    expect(html).toContain(`choices ${JSON.stringify(choices).replaceAll('"', '&quot;')}`)

    rendered.respond({ action: 'accept', content: { note: 'second' } })
    const done = await client.answer([{ request: event!, result: await answer }])
    expect(JSON.parse(eventsOf(done.events, 'tool_result')[0]!.content)).toEqual({ note: 'second' })
  })
})
