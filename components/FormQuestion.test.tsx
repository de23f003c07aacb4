// First: a DOM that leaves Node's fetch classes to the engine (see the module).
import { closeDomWindow } from './testing/dom-window'
import { act, cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react'
import { createQueue, run, spawn, useAbortSignal, type Operation } from 'effection'
import type { ComponentType } from 'react'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rsvpTool, type RsvpResult } from '@/fixtures/rsvp/tool'
import type { ElicitationEntry } from '@/lib/client'
import { createChatServer, type ChatServer } from '@/lib/engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel, type OfflineSkill } from '@/lib/models'
import { createPluginClientContext, executePluginElicitHandler, type RenderedComponent } from '@/lib/plugins'
import type { ElicitAnswer, Question } from '@/lib/protocol'
import { createChatRegistry } from './chat-registry'
import { ElicitationView } from './ElicitationView'

/*
 * The smallest plugin: one tool.ts (fixtures/rsvp), no browser half. Its question, asked by the
 * real chat engine, is shown as the form generated from it, answered in a DOM, and the answer the
 * form sends is the one the tool gets.
 */

configure({ asyncUtilTimeout: 10_000 })

// The offline model calls the tool on any message; the fixture has no skill of its own.
const callsRsvp: OfflineSkill = { toolName: 'rsvp', example: 'rsvp', recognise: () => ({ confidence: 1, text: 'Replying.', calls: [{ event: 'the launch' }] }) }
// The registry as the chat makes it, with no plugin for the tool: its question gets the generated form.
const registry = createChatRegistry([])

let chat: ChatServer
let client: ChatTestClient
beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [callsRsvp] }), tools: [rsvpTool] })
  client = createChatTestClient({ chat })
})
afterEach(async () => {
  cleanup()
  await chat.close()
})
afterAll(closeDomWindow)

/** The question's handler run as the chat runs it, until it answers: its renders shown as the chat shows them. */
function* answering(request: Question, show: (rendered: RenderedComponent) => void): Operation<ElicitAnswer> {
  const task = yield* spawn(function* () {
    const signal = yield* useAbortSignal()
    return yield* executePluginElicitHandler({ registry, request, ctx: createPluginClientContext({ request, signal, show }) })
  })
  return yield* task
}

function Shown({ rendered }: { rendered: RenderedComponent }) {
  const Rendered = rendered.Component as ComponentType<Record<string, unknown>>
  return <Rendered {...rendered.props} onRespond={rendered.respond} disabled={rendered.answered} response={rendered.response} />
}

describe('a question with a form and no component', () => {
  it('is shown as the form generated from it, in the kit’s fields, and its answer reaches the tool as the tool’s answer', async () => {
    const [event] = elicitRequests((await client.say('RSVP')).events)
    const { type: _type, ...request } = event!
    expect(request.form?.properties.guests).toEqual({ type: 'integer', title: 'Guests', minimum: 0, maximum: 4, default: 0 })

    const renders = createQueue<RenderedComponent, never>()
    const answer = run(() => answering(request, (rendered) => renders.add(rendered)))
    const rendered = await run(function* () {
      return (yield* renders.next()).value
    })
    render(<Shown rendered={rendered} />)

    const form = screen.getByRole('region', { name: 'Will you come to the launch?' })
    const name = within(form).getByRole('textbox', { name: 'Your name' })
    const guests = within(form).getByRole('spinbutton', { name: 'Guests' })
    expect(guests).toHaveProperty('value', '0')
    expect([guests.getAttribute('min'), guests.getAttribute('max'), guests.getAttribute('step')]).toEqual(['0', '4', '1'])
    expect(within(form).getAllByRole('radio').map((radio) => radio.parentElement!.textContent)).toEqual(['Table 1 · by the door', 'Table 2 · by the window', 'Table 3 · on the terrace'])
    expect(within(form).getByRole('checkbox', { name: 'Vegetarian' })).toHaveProperty('checked', false)
    // One button sends the whole form; no field has one of its own.
    expect(within(form).getAllByRole('button').map((button) => button.textContent)).toEqual(['Decline', 'Send'])

    // Sent without a name or a table: refused in the browser, the first field it refused says why.
    // (The check comes with the form, loaded apart from the page's first load: the refusal once it has.)
    fireEvent.click(within(form).getByRole('button', { name: 'Send' }))
    expect((await within(form).findAllByRole('alert')).length).toBeGreaterThan(0)
    expect(name.getAttribute('aria-invalid')).toBe('true')

    fireEvent.change(name, { target: { value: 'Ada' } })
    fireEvent.change(guests, { target: { value: '2' } })
    fireEvent.click(within(form).getByRole('radio', { name: 'Table 2 · by the window' }))
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Vegetarian' }))
    act(() => fireEvent.click(within(form).getByRole('button', { name: 'Send' })))

    const result = await answer
    // The choice "T2" stands for `{ table: 2 }`: what is sent is the tool's answer.
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', guests: 2, table: 2, vegetarian: true } })
    const done = await client.answer([{ request: event!, result }])
    const [toolResult] = eventsOf(done.events, 'tool_result')
    expect(JSON.parse(toolResult!.content) as RsvpResult).toEqual({ status: 'replied', name: 'Ada', guests: 2, table: 2, vegetarian: true })

    // Answered, it folds to one line in the words of its form, like every question.
    cleanup()
    const answered: ElicitationEntry = { question: request, attempt: 1, status: 'answered', answers: [], result }
    render(<ElicitationView elicitation={answered} renders={[{ ...rendered, answered: true, response: result }]} />)
    const line = await screen.findByTestId('answer-line')
    // Each field's title and what was given, one part each (a choice whose title says its field's once).
    expect([...line.querySelectorAll('span.inline-block')].map((part) => part.textContent)).toEqual(['Your name Ada', 'Guests 2', 'Table 2 · by the window', 'Vegetarian Yes'])
  })

  it('declined, the tool hears a decline', async () => {
    const [event] = elicitRequests((await client.say('RSVP')).events)
    const { type: _type, ...request } = event!
    const renders = createQueue<RenderedComponent, never>()
    const answer = run(() => answering(request, (rendered) => renders.add(rendered)))
    render(<Shown rendered={await run(function* () { return (yield* renders.next()).value })} />)
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Decline' })))
    const done = await client.answer([{ request: event!, result: await answer }])
    expect(JSON.parse(eventsOf(done.events, 'tool_result')[0]!.content)).toEqual({ status: 'declined' })
  })
})
