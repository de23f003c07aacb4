import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadMarkdownParser, safeHref } from '@/lib/client'
import { leastCpuMsOf } from '@/lib/testing/cpu-time'
import { Markdown } from './Markdown'

const render = (text: string) => renderToStaticMarkup(<Markdown text={text} />)

describe('Markdown before its parser has loaded', () => {
  it('shows all of the text as plain paragraphs, the cursor at its end, and no HTML from it', () => {
    const html = renderToStaticMarkup(<Markdown text={'**Booked** <b>x</b>\n\nSecond line\nthird'} trailing={<i>cursor</i>} />)
    expect(html).toBe('<div class="space-y-3 whitespace-pre-wrap break-words"><p>**Booked** &lt;b&gt;x&lt;/b&gt;</p><p>Second line\nthird<i>cursor</i></p></div>')
  })
})

describe('Markdown', () => {
  // The parser is its own chunk: once it has loaded, every Markdown renders with it at once.
  beforeAll(async () => {
    await loadMarkdownParser()
  })

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

  it('puts the trailing cursor in the last list item, and after a code block', () => {
    expect(renderToStaticMarkup(<Markdown text={'- a\n- b'} trailing={<i>cursor</i>} />)).toMatch(/<li[^>]*>b<i>cursor<\/i><\/li><\/ul><\/div>$/)
    expect(renderToStaticMarkup(<Markdown text={'```\nx\n```'} trailing={<i>cursor</i>} />)).toMatch(/<\/pre><i>cursor<\/i><\/div>$/)
  })

  it('renders a table with its alignment as classes, never as style attributes', () => {
    const html = render('| Flight | Price |\n| --- | ---: |\n| SkyHigh 101 | **$299** |\n| Jet 7 | $310 |')
    expect(html).toMatch(/<table[^>]*><thead[^>]*><tr><th class="[^"]*text-left">Flight<\/th><th class="[^"]*text-right">Price<\/th><\/tr><\/thead>/)
    expect(html).toMatch(/<td class="[^"]*text-right"><strong[^>]*>\$299<\/strong><\/td>/)
    expect(html.match(/<tr>/g)).toHaveLength(3)
    expect(html).not.toContain('style=')
  })

  it('renders a fenced code block verbatim, with its language, also while it is still open', () => {
    const html = render('```ts\nconst a = **1** < 2 && "<b>"\n```\nafter')
    expect(html).toContain('<pre class=')
    expect(html).toContain('<code data-language="ts">const a = **1** &lt; 2 &amp;&amp; &quot;&lt;b&gt;&quot;</code></pre>')
    expect(html).toMatch(/<p>after<\/p>/)
    expect(render('```\nstreaming')).toContain('<code>streaming</code>')
  })

  it('renders headings below the page headings, lists, quotes, rules, strikethrough and inline code', () => {
    const html = render('# Title\n\n1. one\n2. `two`\n\n> quoted\n\n---\n\n~~gone~~ snake_case_name')
    expect(html).toMatch(/<p role="heading" aria-level="3"[^>]*>Title<\/p>/)
    expect(html).toMatch(/<ol start="1"[^>]*><li[^>]*>one<\/li><li[^>]*><code[^>]*>two<\/code><\/li><\/ol>/)
    expect(html).toMatch(/<blockquote[^>]*><p>quoted<\/p><\/blockquote>/)
    expect(html).toContain('<hr')
    expect(html).toContain('<s>gone</s> snake_case_name')
  })

  it.each([
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['an upper-case JAVASCRIPT: link', '[x](JAVASCRIPT:alert(1))'],
    ['an entity-encoded javascript: link', '[x](&#106;avascript:alert(1))'],
    ['a data: link', '[x](data:text/html,<script>alert(1)</script>)'],
    ['a vbscript: link', '[x](vbscript:msgbox)'],
    ['a relative link', '[x](/api/sessions)'],
    ['a protocol-relative link', '[x](//evil.example)'],
    ['an autolink with a script scheme', '<javascript:alert(1)>'],
    ['an image with a script scheme', '![x](javascript:alert(1))'],
    ['raw HTML with a handler', '<img src=x onerror=alert(1)><a href="javascript:alert(1)">y</a>'],
    ['an HTML block', '<div onclick="alert(1)">\n\nhi\n\n</div>'],
  ])('makes nothing clickable or loadable out of %s', (_name, text) => {
    const html = render(text)
    expect(html).not.toMatch(/<(a|img|script|div onclick|iframe)[\s>]/i)
    // Inside a real tag: text shows escaped (&lt;…), so its "<" never starts one.
    expect(html).not.toMatch(/<[^>]*\s(on\w+|src|href)=/i)
  })

  it('links http(s) and mailto, bare URLs included, and shows an image as a link to it', () => {
    expect(render('[mail](mailto:desk@example.com) https://example.com/a?b=1.')).toMatch(
      /<a href="mailto:desk@example.com"[^>]*>mail<\/a> <a href="https:\/\/example.com\/a\?b=1"[^>]*>https:\/\/example.com\/a\?b=1<\/a>\./,
    )
    const image = render('![the gate](https://example.com/gate.png)')
    expect(image).toMatch(/<a href="https:\/\/example.com\/gate.png" target="_blank" rel="noopener noreferrer"[^>]*>the gate<\/a>/)
    expect(image).not.toContain('<img')
  })

  it('stays fast on input that made the old renderer quadratic, and on deep nesting', () => {
    // Measured with the old renderer: 60 KB of `*a ` took 14.6 s in the browser. A parser
    // that is linear takes milliseconds; the bound is generous for slow machines.
    for (const text of ['*a '.repeat(20_000), 'a* '.repeat(20_000), '[a]('.repeat(15_000), '**a *'.repeat(12_000), '>'.repeat(60_000), '- '.repeat(30_000), '!['.repeat(30_000)]) {
      // CPU time, the least of three runs: a quadratic parse costs seconds of it on every run,
      // and a machine busy with other work adds none.
      let html = ''
      expect(leastCpuMsOf(() => (html = render(text))), text.slice(0, 6)).toBeLessThan(2_000)
      expect(html.length).toBeGreaterThan(0)
    }
    // The time-out is a safety net for a hang, not the bound: 21 renders of 60 KB took 67 s of
    // wall clock at a load average of 23 on 2 cores, with the CPU time above well within it.
  }, 300_000)
})

describe('safeHref', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/a', 'http://example.com/a'],
    ['mailto:a@b.c', 'mailto:a@b.c'],
    ['javascript:alert(1)', undefined],
    ['JAVASCRIPT:alert(1)', undefined],
    ['vbscript:x', undefined],
    ['data:text/html,hi', undefined],
    ['//evil.com', undefined],
    ['/relative', undefined],
  ])('%s → %s', (href, expected) => {
    expect(safeHref(href)).toBe(expected)
  })
})
