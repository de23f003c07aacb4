import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { parseFlatForm } from '@/lib/mcp/client/flat-form'
import { AnswerBar, ChoiceList, Form, NumberField, PrimaryButton, QuietButton, TextField } from '.'

const slots = ['09:00', '10:30', '14:00']
const list = { choices: slots, keyOf: (slot: string) => slot, render: (slot: string) => slot, onChoose: () => {} }

describe('ChoiceList', () => {
  it('offers a button per choice, named by what it shows unless labelOf says more', () => {
    const html = renderToStaticMarkup(<ChoiceList {...list} disabled={false} />)
    expect(html.match(/<button type="button" aria-pressed="false"/g)).toHaveLength(3)
    expect(html).not.toContain('aria-label')
    expect(renderToStaticMarkup(<ChoiceList {...list} labelOf={(slot) => `${slot}, 30 minutes`} disabled={false} />)).toContain('aria-label="09:00, 30 minutes"')
  })

  it('lays out as a grid of as many columns as fit, or as one column', () => {
    expect(renderToStaticMarkup(<ChoiceList {...list} layout="grid" minItemWidth="6rem" disabled={false} />)).toContain(
      'grid-template-columns:repeat(auto-fill, minmax(min(6rem, 100%), 1fr))',
    )
    expect(renderToStaticMarkup(<ChoiceList {...list} disabled={false} />)).toContain('flex flex-col')
  })

  it('marks the chosen one pressed while open, and once answered lists the choices with nothing to press', () => {
    expect(renderToStaticMarkup(<ChoiceList {...list} chosen="10:30" disabled={false} />).match(/aria-pressed="true"/g)).toHaveLength(1)
    const answered = renderToStaticMarkup(<ChoiceList {...list} chosen="10:30" disabled />)
    expect(answered).not.toContain('<button')
    expect(answered).toMatch(/<li aria-current="true"[^>]*>10:30<\/li>/)
  })
})

describe('TextField', () => {
  it('is a labelled one-line field with its submit button, waiting for text', () => {
    const html = renderToStaticMarkup(<TextField label="Name" submitLabel="Confirm" disabled={false} onSubmit={() => {}} />)
    const id = html.match(/<label for="([^"]+)"/)![1]
    expect(html).toContain(`<input id="${id}"`)
    expect(html).toMatch(/<button disabled="" type="submit"[^>]*>Confirm<\/button>/)
  })

  it('is a labelled text box of several lines when multiline, starting from its default, ready to send', () => {
    const html = renderToStaticMarkup(<TextField label="Invitation" multiline rows={6} defaultValue={'Hi Dana,\nshall we meet?'} disabled={false} onSubmit={() => {}} />)
    const id = html.match(/<label for="([^"]+)"/)![1]
    expect(html).toMatch(new RegExp(`<textarea id="${id}" rows="6"[^>]*>Hi Dana,\nshall we meet\\?</textarea>`))
    expect(html).toMatch(/<button type="submit"[^>]*>Send<\/button>/)
  })

  it('once answered shows the text given, as text', () => {
    const html = renderToStaticMarkup(<TextField label="Invitation" multiline answer="Hi Dana" disabled onSubmit={() => {}} />)
    expect(html).not.toMatch(/<(input|textarea|button)/)
    expect(html).toContain('Invitation')
    expect(html).toContain('Hi Dana')
  })
})

describe('fields of a larger form', () => {
  it('TextField without onSubmit is a labelled field alone: no form and no button of its own', () => {
    const html = renderToStaticMarkup(<TextField label="Your name" value="Ada" onChange={() => {}} required disabled={false} />)
    expect(html).not.toMatch(/<(form|button)/)
    const input = html.match(/<input [^>]*>/)![0]
    for (const attribute of ['aria-required="true"', 'type="text"', 'value="Ada"']) expect(input).toContain(attribute)
    expect(html).toContain('Your name<span aria-hidden="true"> *</span>')
  })

  it('NumberField is a labelled number box within its bounds, whole numbers only when integer; answered, the number as text', () => {
    const html = renderToStaticMarkup(<NumberField label="Guests" integer minimum={0} maximum={4} value="2" onChange={() => {}} disabled={false} />)
    const input = html.match(/<input [^>]*>/)![0]
    for (const attribute of ['type="number"', 'inputMode="numeric"', 'step="1"', 'min="0"', 'max="4"', 'value="2"']) expect(input).toContain(attribute)
    const answered = renderToStaticMarkup(<NumberField label="Guests" value="" onChange={() => {}} answer={2} disabled />)
    expect(answered).not.toContain('<input')
    expect(answered).toContain('>2</p>')
  })

  it('Form draws a field per property of an MCP form with its buttons; answered, each field says what was given', () => {
    const fields = parseFlatForm({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name' },
        guests: { type: 'integer', title: 'Guests', minimum: 0, maximum: 4 },
        table: { type: 'string', title: 'Table', oneOf: [{ const: 'T1', title: 'By the door' }, { const: 'T2', title: 'By the window' }] },
        vegetarian: { type: 'boolean', title: 'Vegetarian' },
      },
      required: ['name', 'table'],
    })
    const open = renderToStaticMarkup(<Form fields={fields} disabled={false} onSubmit={() => {}}><PrimaryButton type="submit">Send</PrimaryButton></Form>)
    expect(open).toContain('Fields marked * are required.')
    expect(open.match(/<input /g)).toHaveLength(5)
    expect(open.match(/<button /g)).toHaveLength(1)
    const answered = renderToStaticMarkup(<Form fields={fields} disabled answer={{ name: 'Ada', guests: 2, table: 'T2', vegetarian: true }} onSubmit={() => {}} />)
    expect(answered).not.toMatch(/<(input|button)/)
    for (const given of ['Ada', '2', 'By the window', 'Yes']) expect(answered).toContain(`>${given}</p>`)
  })
})

describe('buttons and the answer bar', () => {
  it('PrimaryButton and QuietButton are plain buttons in the shared look', () => {
    expect(renderToStaticMarkup(<PrimaryButton>Confirm</PrimaryButton>)).toMatch(/^<button type="button" class="[^"]*bg-sky-700[^"]*">Confirm<\/button>$/)
    expect(renderToStaticMarkup(<PrimaryButton type="submit">Send</PrimaryButton>)).toContain('type="submit"')
    expect(renderToStaticMarkup(<QuietButton>Cancel</QuietButton>)).toMatch(/^<button type="button" class="[^"]*">Cancel<\/button>$/)
  })

  it('AnswerBar shows nothing when it has neither a status nor a button', () => {
    expect(renderToStaticMarkup(<AnswerBar>{null}</AnswerBar>)).toBe('')
    expect(renderToStaticMarkup(<AnswerBar status="Declined">{null}</AnswerBar>)).toContain('Declined')
  })
})
