import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { prerender } from 'react-dom/static'
import { describe, expect, it } from 'vitest'
import type { ElicitationEntry } from '@/lib/client'
import type { PluginClientContext, QuestionProps, RenderedComponent } from '@/lib/plugins'
import type { Question } from '@/lib/protocol'
import { questionHandler } from '@/lib/plugins/question-handler'
import { ElicitationView } from './ElicitationView'

function SeatButtons({ answered, disabled }: QuestionProps<unknown, { seat: string }>) {
  return <button disabled={disabled}>{answered?.action === 'accept' ? `Seat ${answered.content.seat} chosen` : 'Pick 10A'}</button>
}

/** What the chat renders for a question answered by `SeatButtons`: the handler's one render, answered or not. */
function questionRender(response?: unknown): RenderedComponent {
  let shown: RenderedComponent | undefined
  const ctx = {
    *render(Component: RenderedComponent['Component'], props: Record<string, unknown>) {
      shown = { index: 0, Component, props, respond: () => {}, answered: response !== undefined, response }
      yield undefined as never
    },
  } as unknown as PluginClientContext
  const request = { message: 'Which seat?', context: {}, choices: {}, defaults: {} } as unknown as Question
  questionHandler(SeatButtons as never)(request, ctx)[Symbol.iterator]().next()
  return shown!
}

const question: ElicitationEntry = {
  question: {
    sessionId: 'call-1',
    callId: 'call-1',
    elicitId: 'book_flight/pickSeat/call-1/5',
    toolName: 'book_flight',
    key: 'pickSeat',
    message: 'Which seat?',
    context: {},
    schema: {},
    fieldTitles: { seat: 'Seat' },
    choices: { seat: [{ value: '10A', title: '10A · window' }] },
  },
  attempt: 1,
  status: 'waiting',
  answers: [],
}

/** The markup once everything has loaded (the folded line is a chunk of its own). */
async function markupOf(node: ReactNode): Promise<string> {
  const { prelude } = await prerender(node)
  return new Response(prelude).text()
}

describe('ElicitationView', () => {
  it('shows the question waiting, open, for its component to answer', () => {
    const html = renderToStaticMarkup(<ElicitationView elicitation={question} renders={[questionRender()]} />)
    expect(html).toContain('data-render-live=""')
    expect(html).toContain('>Pick 10A</button>')
    expect(html).not.toContain('aria-expanded')
  })

  it('folds an answered question to one line, what was asked and answered, with a disclosure; the component is not shown', async () => {
    // While its chunk loads (the first time), only a placeholder of the line's height.
    expect(renderToStaticMarkup(<ElicitationView elicitation={{ ...question, status: 'closed' }} renders={[]} />)).toMatch(/<div aria-hidden="true" class="h-\[38px\]/)
    const answered = { value: { action: 'accept', content: { seat: '10A' } } }
    const html = await markupOf(
      <ElicitationView
        elicitation={{ ...question, status: 'closed', result: { action: 'accept', content: { seat: '10A' } } }}
        renders={[questionRender(answered.value)]}
      />,
    )
    expect(html).toMatch(/<button type="button" aria-expanded="false" data-testid="answer-line"/)
    expect(html).toMatch(/Seat(<!-- -->)? <\/span><span [^>]*>10A · window<\/span>/)
    expect(html).not.toContain('chosen')
    expect(html).not.toContain('disabled')
    expect(html).not.toContain('data-render-live')
  })

  it('folds a question stopped before an answer, and one whose plugin is not here yet', async () => {
    const stopped = await markupOf(<ElicitationView elicitation={{ ...question, status: 'stopped' }} renders={[questionRender()]} />)
    expect(stopped).toContain('Stopped before an answer')
    expect(stopped).not.toContain('<button disabled')
    const loading = await markupOf(<ElicitationView elicitation={{ ...question, status: 'closed', result: { action: 'decline' } }} renders={[]} />)
    expect(loading).toMatch(/Seat(<!-- -->)? <\/span><span [^>]*>Declined</)
  })

  it('keeps a generator handler’s own renders as they show themselves answered', () => {
    const own: RenderedComponent = {
      index: 0,
      Component: (({ response }: { response?: string }) => <p>{`Allowed ${response}`}</p>) as never,
      props: {},
      answered: true,
      response: 'once',
      respond: () => {},
    }
    const html = renderToStaticMarkup(<ElicitationView elicitation={{ ...question, status: 'closed', result: { action: 'accept', content: {} } }} renders={[own]} />)
    expect(html).toContain('<p>Allowed once</p>')
    expect(html).not.toContain('answer-line')
  })
})
