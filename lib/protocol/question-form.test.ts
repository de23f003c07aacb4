import { describe, expect, it } from 'vitest'
import { describeAnswer, fieldTitlesOf, formContentFor, standsFor } from './question-form'

const seat = {
  fieldTitles: { seat: 'Seat' },
  choices: { seat: [{ value: '10A', title: '10A · window' }, { value: '10B', title: '10B · middle' }] },
  choiceAnswers: { seat: { '10A': { row: 10, seat: 'A' }, '10B': { row: 10, seat: 'B' } } },
}

describe('describeAnswer', () => {
  it('says a choice by its title, found through what its value stands for', () => {
    expect(describeAnswer({ response: { row: 10, seat: 'B' }, ...seat })).toEqual([{ title: 'Seat', value: '10B · middle' }])
  })

  it('says a choice whose value is the answer by its title, several choices joined, text and numbers as given, yes and no', () => {
    const parts = describeAnswer({
      response: { flightId: 'SH-769', extras: ['wifi', 'lounge'], note: 'Near the front', bags: 2, window: true },
      fieldTitles: { flightId: 'Flight', extras: 'Extras', note: 'Note', bags: 'Bags', window: 'Window seat' },
      choices: {
        flightId: [{ value: 'SH-769', title: 'SH 769 · 06:39 → 09:03 · $218' }],
        extras: [{ value: 'wifi', title: 'Wi-Fi' }, { value: 'lounge', title: 'Lounge' }],
      },
    })
    expect(parts).toEqual([
      { title: 'Flight', value: 'SH 769 · 06:39 → 09:03 · $218' },
      { title: 'Extras', value: 'Wi-Fi, Lounge' },
      { title: 'Note', value: 'Near the front' },
      { title: 'Bags', value: '2' },
      { title: 'Window seat', value: 'Yes' },
    ])
  })

  it('leaves out a field the answer does not fill, and says an answer no field covers by its own properties', () => {
    expect(describeAnswer({ response: { row: 10, seat: 'B', note: 'x' }, ...seat, fieldTitles: { seat: 'Seat', note: 'Note', meal: 'Meal' } })).toEqual([
      { title: 'Seat', value: '10B · middle' },
      { title: 'Note', value: 'x' },
    ])
    expect(describeAnswer({ response: { row: 99, seat: 'Z' }, ...seat })).toEqual([
      { title: 'row', value: '99' },
      { title: 'seat', value: 'Z' },
    ])
    expect(describeAnswer({ response: { cell: 5 } })).toEqual([{ title: 'cell', value: '5' }])
  })
})

describe('standsFor', () => {
  it('holds when the response has every property of the part, and never for an empty part', () => {
    expect(standsFor({ row: 10, seat: 'A' }, { row: 10, seat: 'A', extra: 1 })).toBe(true)
    expect(standsFor({ row: 10, seat: 'A' }, { row: 10, seat: 'B' })).toBe(false)
    expect(standsFor({}, { row: 10 })).toBe(false)
  })

  it('is how an answer becomes the form’s content again', () => {
    const schema = { type: 'object' as const, properties: { seat: { type: 'string' as const, title: 'Seat', oneOf: [{ const: '10A', title: '10A' }] } } }
    expect(formContentFor({ row: 10, seat: 'A' }, schema, { seat: seat.choiceAnswers.seat })).toEqual({ seat: '10A' })
    expect(fieldTitlesOf(schema)).toEqual({ seat: 'Seat' })
  })
})
