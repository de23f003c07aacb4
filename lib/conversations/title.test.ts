import { describe, expect, it } from 'vitest'
import { MADE_TITLE_MAX_CHARS, titleFrom } from './title'

describe('titleFrom', () => {
  it('is the first message on one line, trimmed', () => {
    expect(titleFrom('  Book a flight from NYC to LAX\n\tfor tomorrow  ')).toBe('Book a flight from NYC to LAX for tomorrow')
    expect(titleFrom('   ')).toBe('')
  })

  it('cuts a long message at a word boundary, with an ellipsis, within 60 characters', () => {
    const message = 'Please book me a flight from New York to Los Angeles next Tuesday morning, window seat'
    const title = titleFrom(message)
    expect(title).toBe('Please book me a flight from New York to Los Angeles next…')
    expect(title.length).toBeLessThanOrEqual(MADE_TITLE_MAX_CHARS)
  })

  it('cuts a word that is longer than the title where it must', () => {
    const title = titleFrom('x'.repeat(100))
    expect(title).toBe(`${'x'.repeat(MADE_TITLE_MAX_CHARS - 1)}…`)
  })
})
