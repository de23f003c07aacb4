import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from './Markdown'

describe('Markdown', () => {
  it('renders formatting as elements and never passes HTML through', () => {
    const html = renderToStaticMarkup(<Markdown text={'**Booked** <script>alert(1)</script> [x](javascript:alert(1)) [docs](https://example.com)'} />)
    expect(html).toContain('<strong')
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;')
    expect(html).not.toMatch(/href="(?!https:)/)
    expect(html).toMatch(/<a href="https:\/\/example.com\/" target="_blank" rel="noopener noreferrer"/)
  })

  it('puts the trailing cursor inside the last paragraph', () => {
    const html = renderToStaticMarkup(<Markdown text="Hello" trailing={<i>cursor</i>} />)
    expect(html).toMatch(/<p>Hello<i>cursor<\/i><\/p>/)
  })
})
