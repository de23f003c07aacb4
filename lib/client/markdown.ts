/**
 * A small Markdown reader for assistant text: paragraphs, headings, fenced code, lists,
 * quotes, rules, and inline bold, italics, code and links. It produces a tree that the UI
 * turns into React elements, so no HTML from the model ever reaches the page; a link keeps
 * its target only when that is an absolute http(s) URL. Text still streaming is fine:
 * an unclosed fence runs to the end, unclosed emphasis stays literal.
 */

export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: InlineNode[] }
  | { type: 'em'; children: InlineNode[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: InlineNode[] }
  | { type: 'break' }

export type BlockNode =
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'heading'; level: number; children: InlineNode[] }
  | { type: 'code'; language?: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: InlineNode[][] }
  | { type: 'quote'; children: InlineNode[] }
  | { type: 'rule' }

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/
const BULLET = /^\s*[-*+]\s+(.*)$/
const ORDERED = /^\s*(\d{1,9})[.)]\s+(.*)$/
const QUOTE = /^\s{0,3}>\s?(.*)$/

/** Read Markdown into blocks. */
export function parseMarkdown(source: string): BlockNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  const blocks: BlockNode[] = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index]
    if (line.trim() === '') {
      index++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      const marker = fence[1]
      const body: string[] = []
      index++
      while (index < lines.length && !lines[index].trim().startsWith(marker)) body.push(lines[index++])
      index++ // the closing fence, when there is one
      blocks.push({ type: 'code', ...(fence[2] ? { language: fence[2] } : {}), text: body.join('\n') })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, children: parseInline(heading[2]) })
      index++
      continue
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' })
      index++
      continue
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = !BULLET.test(line)
      const start = ordered ? Number(ORDERED.exec(line)?.[1] ?? 1) : 1
      const items: string[] = []
      while (index < lines.length && lines[index].trim() !== '') {
        const item = (ordered ? ORDERED : BULLET).exec(lines[index]) ?? BULLET.exec(lines[index]) ?? ORDERED.exec(lines[index])
        if (item) items.push(item[item.length - 1])
        else if (items.length > 0 && /^\s+/.test(lines[index])) items[items.length - 1] += `\n${lines[index].trim()}`
        else break
        index++
      }
      blocks.push({ type: 'list', ordered, start, items: items.map(parseInline) })
      continue
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = []
      while (index < lines.length && QUOTE.test(lines[index])) {
        quoted.push(QUOTE.exec(lines[index])?.[1] ?? '')
        index++
      }
      blocks.push({ type: 'quote', children: parseInline(quoted.join('\n')) })
      continue
    }
    const paragraph: string[] = []
    while (index < lines.length && lines[index].trim() !== '' && !startsBlock(lines[index])) paragraph.push(lines[index++].trim())
    blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) })
  }
  return blocks
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line)
}

const LINK = /^\[([^\]\n]*)\]\(\s*<?([^\s<>()]+)>?(?:\s+"[^"\n]*")?\s*\)/
const AUTOLINK = /^https?:\/\/[^\s<>"'`]+/
const ESCAPABLE = '\\`*_{}[]()#+-.!>|~'

/** Read inline Markdown. */
export function parseInline(source: string): InlineNode[] {
  const nodes: InlineNode[] = []
  let text = ''
  const flush = () => {
    if (text) nodes.push({ type: 'text', text })
    text = ''
  }
  let index = 0
  while (index < source.length) {
    const char = source[index]
    const rest = source.slice(index)
    const previous = index > 0 ? source[index - 1] : ''

    if (char === '\\' && index + 1 < source.length && ESCAPABLE.includes(source[index + 1])) {
      text += source[index + 1]
      index += 2
      continue
    }
    if (char === '\n') {
      flush()
      nodes.push({ type: 'break' })
      index++
      continue
    }
    if (char === '`') {
      const run = /^`+/.exec(rest)?.[0] ?? '`'
      const close = source.indexOf(run, index + run.length)
      if (close !== -1) {
        flush()
        nodes.push({ type: 'code', text: source.slice(index + run.length, close).replace(/^ (.*) $/, '$1') })
        index = close + run.length
        continue
      }
      text += run
      index += run.length
      continue
    }
    if (char === '[') {
      const link = LINK.exec(rest)
      if (link) {
        flush()
        const children = parseInline(link[1])
        const href = safeHref(link[2])
        if (href) nodes.push({ type: 'link', href, children })
        else nodes.push(...children)
        index += link[0].length
        continue
      }
    }
    if ((char === 'h' || char === 'H') && !isWordChar(previous)) {
      const url = AUTOLINK.exec(rest)?.[0].replace(/[.,;:!?)\]]+$/, '')
      const href = url ? safeHref(url) : undefined
      if (url && href) {
        flush()
        nodes.push({ type: 'link', href, children: [{ type: 'text', text: url }] })
        index += url.length
        continue
      }
    }
    if (char === '*' || char === '_') {
      const emphasis = readEmphasis(source, index)
      if (emphasis) {
        flush()
        nodes.push(emphasis.node)
        index = emphasis.end
        continue
      }
      const run = char === '*' ? /^\*+/.exec(rest)?.[0] : /^_+/.exec(rest)?.[0]
      text += run ?? char
      index += run?.length ?? 1
      continue
    }
    text += char
    index++
  }
  flush()
  return nodes
}

/** `**strong**`, `__strong__`, `*em*`, `_em_`; underscores only at word edges (snake_case stays). */
function readEmphasis(source: string, start: number): { node: InlineNode; end: number } | undefined {
  const char = source[start]
  const strong = source[start + 1] === char
  const marker = strong ? char + char : char
  const contentStart = start + marker.length
  if (contentStart >= source.length || /\s/.test(source[contentStart])) return undefined
  if (char === '_' && isWordChar(source[start - 1] ?? '')) return undefined
  let search = contentStart
  while (search < source.length) {
    const close = source.indexOf(char, search)
    if (close === -1) return undefined
    let run = 1
    while (source[close + run] === char) run++
    const after = source[close + run] ?? ''
    // A single marker closes only on a single one, so `*a **b** c*` nests.
    const fits = strong ? run >= 2 : run === 1
    if (fits && close > contentStart && !/\s/.test(source[close - 1]) && (char !== '_' || !isWordChar(after))) {
      const children = parseInline(source.slice(contentStart, close))
      return { node: strong ? { type: 'strong', children } : { type: 'em', children }, end: close + marker.length }
    }
    search = close + run
  }
  return undefined
}

function isWordChar(char: string): boolean {
  return /[\p{L}\p{N}_]/u.test(char)
}

/** The URL to link to, only when it is absolute http(s); anything else is shown as text. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}
