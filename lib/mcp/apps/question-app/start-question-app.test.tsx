// @vitest-environment happy-dom
import { configure, findByRole, findByText, fireEvent } from '@testing-library/dom'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { QUESTION_META_KEY, type FormSchema } from '../../../protocol/question-form'
import { ColourPicker } from '../testing/question-fixture/ColourPicker'
import { COLOURS } from '../testing/question-fixture/colors'
import { APPS_PROTOCOL_VERSION, beginHandshake } from './handshake'
import { startQuestionApp } from './start-question-app'

/*
 * The question app's runtime as a host drives it over postMessage: its handshake begun by the
 * document's first script, the app's bundle started later (as a browser runs the second script),
 * and the fixture's real component rendering the question. The host is this test: it reads what
 * the app posts and sends what a host sends, with the app's window as the message's source.
 */

// What the app shows comes when its render does; a busy machine may take more than the default 1 s.
configure({ asyncUtilTimeout: 10_000 })

type Message = Record<string, unknown> & { id?: unknown; method?: unknown }

/** The host's end: every message the app posted, and a wait for the next that matches. */
function testHost() {
  const received: Message[] = []
  const waiting: Array<{ matches(message: Message): boolean; resolve(message: Message): void }> = []
  const hostWindow = {
    postMessage(message: Message) {
      received.push(message)
      for (const waiter of waiting.splice(0)) {
        if (waiter.matches(message)) waiter.resolve(message)
        else waiting.push(waiter)
      }
    },
  } as unknown as Window
  return {
    window: hostWindow,
    received,
    /** The first message the app posted that matches, already or once it comes. */
    posted(matches: (message: Message) => boolean): Promise<Message> {
      const already = received.find(matches)
      if (already) return Promise.resolve(already)
      return new Promise((resolve) => waiting.push({ matches, resolve }))
    },
    send(message: Message) {
      window.dispatchEvent(new MessageEvent('message', { data: { jsonrpc: '2.0', ...message }, source: hostWindow }))
    },
  }
}

const schema: FormSchema = {
  type: 'object',
  properties: { colour: { type: 'string', title: 'Colour', oneOf: COLOURS.map((colour) => ({ const: colour.id, title: colour.name })) } },
  required: ['colour'],
}
const question = {
  mode: 'form',
  message: 'Which colour for "Spring"?',
  requestedSchema: schema,
  _meta: { ui: { resourceUri: 'ui://paint_poster/pickColour' }, [QUESTION_META_KEY]: { tool: 'paint_poster', key: 'pickColour', context: { colours: COLOURS } } },
}
const app = { tool: 'paint_poster', key: 'pickColour' }

let container: HTMLElement
beforeEach(() => {
  container = document.createElement('div')
  document.body.append(container)
})
afterEach(() => {
  container.remove()
  document.documentElement.removeAttribute('data-theme')
})

describe('the question app, its handshake begun before its bundle runs', () => {
  it('answers a question the host forwarded before the bundle was ready, once, with what the person picked', async () => {
    const host = testHost()
    const handshake = beginHandshake(app, { host: host.window, self: window })
    expect(host.received).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'ui/initialize',
        params: { appInfo: { name: 'paint_poster/pickColour', version: '1.0.0' }, appCapabilities: { elicitation: {} }, protocolVersion: APPS_PROTOCOL_VERSION },
      },
    ])

    host.send({ id: 1, result: { protocolVersion: APPS_PROTOCOL_VERSION, hostContext: { theme: 'dark' } } })
    await host.posted((message) => message.method === 'ui/notifications/initialized')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
    // The host forwards the question and a theme change at once; the app's bundle has not run yet.
    host.send({ id: 'q1', method: 'elicitation/create', params: question })
    host.send({ method: 'ui/notifications/host-context-changed', params: { theme: 'light' } })

    void startQuestionApp({ ...app, component: ColourPicker as never, container, handshake })
    await findByRole(container, 'region', { name: 'Colours' })
    expect(await findByText(container, 'Which colour for "Spring"?')).toBeTruthy()
    // A notification that came while the bundle loaded is not lost either.
    expect(document.documentElement.getAttribute('data-theme')).toBe('light')
    fireEvent.click(await findByRole(container, 'button', { name: 'Fern green' }))

    const answer = await host.posted((message) => message.id === 'q1')
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'q1', result: { action: 'accept', content: { colour: 'green' } } })
    // Its size once it started, then nothing else for the question: answered once, never refused as an unknown method.
    await host.posted((message) => message.method === 'ui/notifications/size-changed')
    expect(host.received.filter((message) => message.id === 'q1')).toHaveLength(1)
  })

  it('answers a question that comes after it started, and a request it does not know with method-not-found', async () => {
    const host = testHost()
    const handshake = beginHandshake(app, { host: host.window, self: window })
    void startQuestionApp({ ...app, component: ColourPicker as never, container, handshake })
    host.send({ id: 1, result: { protocolVersion: APPS_PROTOCOL_VERSION, hostContext: {} } })
    await host.posted((message) => message.method === 'ui/notifications/initialized')

    host.send({ id: 7, method: 'ui/open-sesame', params: {} })
    expect(await host.posted((message) => message.id === 7)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: ui/open-sesame' } })
    host.send({ id: 8, method: 'elicitation/create', params: question })
    fireEvent.click(await findByRole(container, 'button', { name: 'Decline' }))
    expect(await host.posted((message) => message.id === 8)).toEqual({ jsonrpc: '2.0', id: 8, result: { action: 'decline' } })
  })

  it('a host that refuses ui/initialize: the app says so where a person looks, and never says it is initialized', async () => {
    const host = testHost()
    const handshake = beginHandshake(app, { host: host.window, self: window })
    host.send({ id: 1, error: { code: -32600, message: 'This host takes no apps today.' } })
    await startQuestionApp({ ...app, component: ColourPicker as never, container, handshake })

    expect(container.textContent).toBe("This question's app could not start: This host takes no apps today.")
    expect(host.received.map((message) => message.method)).toEqual(['ui/initialize'])
  })
})
