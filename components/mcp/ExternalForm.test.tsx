// First: a DOM for the form (see the module).
import { closeDomWindow } from '../testing/dom-window'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { ElicitAnswer } from '@/lib/protocol'
import { ExternalForm } from './ExternalForm'

afterEach(cleanup)
afterAll(closeDomWindow)

/** A form as server-everything's trigger-elicitation-request asks it (a part of its fields). */
const requestedSchema = {
  "type": "object",
  "properties": {
    "name": {
      "title": "String",
      "type": "string",
      "description": "Your full, legal name"
    },
    "check": {
      "title": "Boolean",
      "type": "boolean",
      "description": "Agree to the terms and conditions"
    },
    "email": {
      "title": "String with email format",
      "type": "string",
      "format": "email",
      "description": "Your email address (will be verified, and never shared with anyone else)"
    },
    "birthdate": {
      "title": "String with date format",
      "type": "string",
      "format": "date",
      "description": "Your date of birth"
    },
    "integer": {
      "title": "Integer",
      "type": "integer",
      "description": "Your favorite integer (do not give us your phone number, pin, or other sensitive info)",
      "minimum": 1,
      "maximum": 100,
      "default": 42
    },
    "untitledSingleSelectEnum": {
      "type": "string",
      "title": "Untitled Single Select Enum",
      "description": "Choose your favorite friend",
      "enum": [
        "Monica",
        "Rachel",
        "Joey",
        "Chandler",
        "Ross",
        "Phoebe"
      ],
      "default": "Monica"
    },
    "untitledMultipleSelectEnum": {
      "type": "array",
      "title": "Untitled Multiple Select Enum",
      "description": "Choose your favorite instruments",
      "minItems": 1,
      "maxItems": 3,
      "items": {
        "type": "string",
        "enum": [
          "Guitar",
          "Piano",
          "Violin",
          "Drums",
          "Bass"
        ]
      },
      "default": [
        "Guitar"
      ]
    }
  },
  "required": [
    "name"
  ]
}

function shown(onRespond: (answer: ElicitAnswer<Record<string, unknown>>) => void) {
  render(<ExternalForm message="Please provide inputs for the following fields:" server="everything" requestedSchema={requestedSchema} onRespond={onRespond} disabled={false} />)
  return screen.getByRole('region', { name: 'Form from everything' })
}

describe('an MCP server’s form', () => {
  it('says why Accept with a required field empty sends nothing, on that field, and sends the answer typed once it is filled in', async () => {
    const answers: Array<ElicitAnswer<Record<string, unknown>>> = []
    const form = shown((answer) => answers.push(answer))
    expect(within(form).getByLabelText('Integer')).toHaveProperty('value', '42')

    // The form's check is loaded apart from the page's first load: the refusal once it has come.
    act(() => fireEvent.click(within(form).getByRole('button', { name: 'Accept' })))
    expect((await within(form).findByRole('alert')).textContent).not.toBe('')
    expect(answers).toEqual([])
    const name = within(form).getByLabelText(/^String \*?$/)
    expect(name.getAttribute('aria-invalid')).toBe('true')

    act(() => fireEvent.change(name, { target: { value: 'Ada Lovelace' } }))
    act(() => fireEvent.change(within(form).getByLabelText('Integer'), { target: { value: '7' } }))
    act(() => fireEvent.click(within(form).getByRole('button', { name: 'Accept' })))
    await waitFor(() => expect(answers).toHaveLength(1))
    expect(answers).toEqual([{ action: 'accept', content: expect.objectContaining({ name: 'Ada Lovelace', integer: 7, check: false, untitledSingleSelectEnum: 'Monica' }) }])
  })
})
