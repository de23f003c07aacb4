import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown, safeHref } from './markdown'

const text = (value: string) => ({ type: 'text', text: value })

describe('parseInline', () => {
  it('reads bold, italics and inline code', () => {
    expect(parseInline('a **b** _c_ *d* `e*f`')).toEqual([
      text('a '),
      { type: 'strong', children: [text('b')] },
      text(' '),
      { type: 'em', children: [text('c')] },
      text(' '),
      { type: 'em', children: [text('d')] },
      text(' '),
      { type: 'code', text: 'e*f' },
    ])
  })

  it('nests emphasis', () => {
    expect(parseInline('*a **b** c*')).toEqual([
      { type: 'em', children: [text('a '), { type: 'strong', children: [text('b')] }, text(' c')] },
    ])
  })

  it('leaves snake_case, lone markers and unclosed emphasis as text', () => {
    expect(parseInline('book_flight and my_tool_name')).toEqual([text('book_flight and my_tool_name')])
    expect(parseInline('2 * 3 * 4')).toEqual([text('2 * 3 * 4')])
    expect(parseInline('**still streaming')).toEqual([text('**still streaming')])
    expect(parseInline('`open code')).toEqual([text('`open code')])
  })

  it('links only to http(s) URLs', () => {
    expect(parseInline('[docs](https://example.com/a?b=1)')).toEqual([
      { type: 'link', href: 'https://example.com/a?b=1', children: [text('docs')] },
    ])
    expect(parseInline('[click](javascript:alert(1))')).not.toContainEqual(expect.objectContaining({ type: 'link' }))
    expect(parseInline('[x](javascript:alert)')).toEqual([text('x')])
    expect(parseInline('[x](/relative)')).toEqual([text('x')])
    expect(parseInline('[x](data:text/html,hi)')).toEqual([text('x')])
  })

  it('links bare URLs without their trailing punctuation', () => {
    expect(parseInline('See https://example.com/x.')).toEqual([
      text('See '),
      { type: 'link', href: 'https://example.com/x', children: [text('https://example.com/x')] },
      text('.'),
    ])
  })

  it('keeps HTML as text and honours escapes', () => {
    expect(parseInline('<img src=x onerror=alert(1)> \\*not em\\*')).toEqual([text('<img src=x onerror=alert(1)> *not em*')])
  })

  it('turns newlines into breaks', () => {
    expect(parseInline('a\nb')).toEqual([text('a'), { type: 'break' }, text('b')])
  })
})

describe('parseMarkdown', () => {
  it('reads paragraphs, headings, rules and quotes', () => {
    expect(parseMarkdown('# Title\n\nOne\ntwo\n\n---\n> quoted')).toEqual([
      { type: 'heading', level: 1, children: [text('Title')] },
      { type: 'paragraph', children: [text('One'), { type: 'break' }, text('two')] },
      { type: 'rule' },
      { type: 'quote', children: [text('quoted')] },
    ])
  })

  it('reads fenced code verbatim, also while it is still open', () => {
    expect(parseMarkdown('```ts\nconst a = **1**\n```\nafter')).toEqual([
      { type: 'code', language: 'ts', text: 'const a = **1**' },
      { type: 'paragraph', children: [text('after')] },
    ])
    expect(parseMarkdown('```\nstreaming')).toEqual([{ type: 'code', text: 'streaming' }])
  })

  it('reads bullet and numbered lists', () => {
    expect(parseMarkdown('- a\n- **b**\n  more\n\n3. x\n4. y')).toEqual([
      { type: 'list', ordered: false, start: 1, items: [[text('a')], [{ type: 'strong', children: [text('b')] }, { type: 'break' }, text('more')]] },
      { type: 'list', ordered: true, start: 3, items: [[text('x')], [text('y')]] },
    ])
  })

  it('ends a paragraph where a list starts', () => {
    expect(parseMarkdown('Flights:\n1. SkyHigh $299').map((block) => block.type)).toEqual(['paragraph', 'list'])
  })
})

describe('safeHref', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/a', 'http://example.com/a'],
    ['javascript:alert(1)', undefined],
    ['JAVASCRIPT:alert(1)', undefined],
    ['vbscript:x', undefined],
    ['mailto:a@b.c', undefined],
    ['//evil.com', undefined],
  ])('%s → %s', (href, expected) => {
    expect(safeHref(href)).toBe(expected)
  })
})
