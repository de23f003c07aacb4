import { describe, expect, it } from 'vitest'
import { cleanPlace, isFlightRequest, mentionsFlying, parseFlightTrips } from './flight-request'
import { findTipDestination } from './travel-tips'

describe('parseFlightTrips', () => {
  it.each([
    ['Book a flight from NYC to LAX', [['NYC', 'LAX']]],
    ['Book a flight from NYC to LAX.', [['NYC', 'LAX']]],
    ['book me a flight from New York to Los Angeles!', [['New York', 'Los Angeles']]],
    ['I want to fly from Boston to Chicago on Friday please', [['Boston', 'Chicago']]],
    ['Please book a flight to Paris from London', [['London', 'Paris']]],
    ['book a flight from St. Louis to Denver. Thanks!', [['St. Louis', 'Denver']]],
    ['book a flight from nyc to lax', [['NYC', 'LAX']]],
    ['Book a flight NYC to LAX', [['NYC', 'LAX']]],
    ['Reserve flights: NYC to LAX, LAX to SEA', [['NYC', 'LAX'], ['LAX', 'SEA']]],
    ['Book flights from NYC to LAX and from LAX to SEA', [['NYC', 'LAX'], ['LAX', 'SEA']]],
    ['Book flights from NYC to LAX, then on to SEA', [['NYC', 'LAX'], ['LAX', 'SEA']]],
    ['Book flights from NYC to LAX and LAX to SEA', [['NYC', 'LAX'], ['LAX', 'SEA']]],
    ['Book a flight from NYC to LAX and back', [['NYC', 'LAX'], ['LAX', 'NYC']]],
    ['Book flights from London to Paris to Rome', [['London', 'Paris'], ['Paris', 'Rome']]],
  ])('%s', (text, expected) => {
    expect(parseFlightTrips(text)).toEqual(expected.map(([from, destination]) => ({ from, destination })))
  })

  it.each([
    'Hello there',
    'How long is a flight from NYC to LAX?',
    'I drove from Boston to Chicago',
    'Book a flight',
    'Book a flight to LAX',
  ])('finds no trip in %s', (text) => {
    expect(parseFlightTrips(text)).toEqual([])
  })
})

describe('isFlightRequest', () => {
  it('tells a booking request from a question about flights', () => {
    expect(isFlightRequest('Book a flight')).toBe(true)
    expect(isFlightRequest('Can you book a flight to LAX?')).toBe(true)
    expect(isFlightRequest('How long is a flight to LAX?')).toBe(false)
    expect(isFlightRequest('What is the weather?')).toBe(false)
  })

  it('tells flying from any other booking', () => {
    expect(mentionsFlying('Reserve flights: NYC to LAX')).toBe(true)
    expect(mentionsFlying('Reserve a table for two at 8pm')).toBe(false)
    expect(mentionsFlying('Book a room from Monday to Friday')).toBe(false)
  })
})

describe('cleanPlace', () => {
  it('trims filler and punctuation and rejects what is not a place', () => {
    expect(cleanPlace(' "LAX" tomorrow morning!')).toBe('LAX')
    expect(cleanPlace('the Denver airport')).toBe('Denver')
    expect(cleanPlace('?!')).toBeUndefined()
    expect(cleanPlace('x'.repeat(80))).toBeUndefined()
  })
})

describe('findTipDestination', () => {
  it.each([
    ['Give one short, practical travel tip for a traveller arriving at LAX airport.', 'LAX'],
    ['Travel tip for SEA airport', 'SEA'],
    ['Any advice for visiting New York in winter?', 'New York'],
    ['Give me a travel tip for Paris', 'Paris'],
    ['Tips for someone landing in Tokyo tomorrow', 'Tokyo'],
  ])('%s → %s', (text, destination) => {
    expect(findTipDestination(text)).toBe(destination)
  })

  it('is undefined when no destination is named', () => {
    expect(findTipDestination('Give me a good travel tip.')).toBeUndefined()
  })
})
