import { describe, expect, it } from 'vitest'
import { QUESTION_META_KEY, type FormSchema } from '../../../protocol/question-form'
import { formResultOf, readForwardedQuestion } from './forwarded-question'
import { BridgeError } from './host-bridge'

const schema: FormSchema = {
  type: 'object',
  properties: {
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: '20x30', title: '20 × 30 cm' },
        { const: '40x60', title: '40 × 60 cm' },
      ],
    },
    note: { type: 'string', title: 'Note' },
  },
  required: ['size'],
}
const meta = {
  tool: 'paint_poster',
  key: 'pickSize',
  context: { sizes: [{ width: 20, height: 30 }] },
  answers: { size: { '20x30': { width: 20, height: 30 }, '40x60': { width: 40, height: 60 } } },
}
const params = { mode: 'form', message: 'Which size?', requestedSchema: schema, _meta: { ui: { resourceUri: 'ui://paint_poster/pickSize' }, [QUESTION_META_KEY]: meta } }
const expected = { tool: 'paint_poster', key: 'pickSize' }

describe('readForwardedQuestion', () => {
  it('reads the message, the form and the question from a forwarded elicitation/create', () => {
    expect(readForwardedQuestion(params, expected)).toEqual({ message: 'Which size?', schema, meta })
  })

  it("refuses what is not this app's question, so the host shows its native form", () => {
    const refused = (changed: Record<string, unknown>) => () => readForwardedQuestion({ ...params, ...changed }, expected)
    expect(refused({ _meta: { [QUESTION_META_KEY]: { ...meta, key: 'pickColour' } } })).toThrow(BridgeError)
    expect(refused({ _meta: { ui: { resourceUri: 'ui://paint_poster/pickSize' } } })).toThrow(/names another, or no context/)
    expect(refused({ mode: 'url' })).toThrow('Only form elicitations')
    expect(refused({ requestedSchema: { type: 'object' } })).toThrow('no requestedSchema')
  })
})

describe('formResultOf', () => {
  const question = readForwardedQuestion(params, expected)

  it("gives an accepted answer in the form's shape: the choice whose answer it is, other fields by name", () => {
    expect(formResultOf({ action: 'accept', content: { width: 40, height: 60, note: 'matte' } }, question)).toEqual({
      action: 'accept',
      content: { size: '40x60', note: 'matte' },
    })
  })

  it('leaves out a choice no offered value stands for: the host or the server asks again', () => {
    expect(formResultOf({ action: 'accept', content: { width: 1, height: 1 } }, question)).toEqual({ action: 'accept', content: {} })
  })

  it('passes decline and cancel on as they are', () => {
    expect(formResultOf({ action: 'decline' }, question)).toEqual({ action: 'decline' })
    expect(formResultOf({ action: 'cancel' }, question)).toEqual({ action: 'cancel' })
  })
})
