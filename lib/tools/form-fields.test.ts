import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { question, questionFormOf } from './elicits'
import { buildQuestionForm, field } from './form-fields'

const seats = field.choice<{ row: number; seat: string }>('Seat', [
  { value: '10A', title: '10A · window', answer: { row: 10, seat: 'A' } },
  { value: '10B', title: '10B · middle', answer: { row: 10, seat: 'B' } },
])

describe('a question’s defaults in its form', () => {
  it('become each field’s default in the form’s own terms: the choice that stands for them, the text, the number', () => {
    const form = buildQuestionForm(
      {
        seat: seats,
        note: field.text('Note'),
        bags: field.integer('Bags', { minimum: 0 }),
        meal: field.choice('Meal', [{ value: 'veg', title: 'Vegetarian' }, { value: 'fish', title: 'Fish' }]),
        extras: field.choices('Extras', [{ value: 'wifi', title: 'Wi-Fi' }, { value: 'lounge', title: 'Lounge' }]),
        window: field.boolean('Window'),
      },
      { row: 10, seat: 'B', note: 'Aisle please', bags: 1, meal: 'fish', extras: ['wifi'], window: false },
    )
    const { properties } = form.schema
    expect(properties.seat).toMatchObject({ default: '10B' })
    expect(properties.note).toMatchObject({ default: 'Aisle please' })
    expect(properties.bags).toMatchObject({ default: 1 })
    expect(properties.meal).toMatchObject({ default: 'fish' })
    expect(properties.extras).toMatchObject({ default: ['wifi'] })
    expect(properties.window).toMatchObject({ default: false })
    expect(form.defaults).toEqual({ row: 10, seat: 'B', note: 'Aisle please', bags: 1, meal: 'fish', extras: ['wifi'], window: false })
  })

  it('leave out what a field cannot take, and never override a field’s own default', () => {
    const form = buildQuestionForm(
      { seat: seats, bags: field.integer('Bags'), meal: field.choice('Meal', [{ value: 'veg', title: 'Vegetarian' }], { default: 'veg' }) },
      { row: 99, seat: 'Z', bags: 1.5, meal: 'fish' },
    )
    expect(form.schema.properties.seat).not.toHaveProperty('default')
    expect(form.schema.properties.bags).not.toHaveProperty('default')
    expect(form.schema.properties.meal).toMatchObject({ default: 'veg' })
  })

  it('are computed from the context the question is asked with, for a declared form and a derived one', () => {
    const invite = question({
      response: z.object({ text: z.string().min(1).meta({ title: 'Invitation' }) }),
      context: z.object({ attendee: z.string() }),
      defaults: ({ attendee }) => ({ text: `Hi ${attendee}, shall we meet?` }),
    })
    const derived = questionFormOf(invite, { attendee: 'Dana' })
    expect(derived.defaults).toEqual({ text: 'Hi Dana, shall we meet?' })
    expect(derived.schema.properties.text).toEqual({ type: 'string', title: 'Invitation', minLength: 1, default: 'Hi Dana, shall we meet?' })

    const declared = questionFormOf({ ...invite, form: () => ({ text: field.text('Your invitation', { maxLength: 500 }) }) }, { attendee: 'Lee' })
    expect(declared.schema.properties.text).toEqual({ type: 'string', title: 'Your invitation', maxLength: 500, default: 'Hi Lee, shall we meet?' })
  })

  it('are empty for a question that declares none', () => {
    expect(questionFormOf(z.object({ name: z.string() })).defaults).toEqual({})
    expect(buildQuestionForm({ seat: seats }).schema.properties.seat).not.toHaveProperty('default')
  })
})

describe('a choice field whose options mix answers and plain values', () => {
  it('says what each value stands for, so an answer can be told back as the value', () => {
    const form = buildQuestionForm({
      when: field.choice<{ when: string; flexible: boolean }>('When', [
        { value: 'any', title: 'Any time', answer: { when: 'any', flexible: true } },
        { value: 'morning', title: 'Morning' },
      ]),
    })
    expect(form.answers.when).toEqual({ any: { when: 'any', flexible: true }, morning: { when: 'morning' } })
    expect(form.toResponse({ when: 'morning' })).toEqual({ ok: true, response: { when: 'morning' } })
  })
})
