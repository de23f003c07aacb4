import { Fragment, useMemo, type ReactNode } from 'react'
import { safeHref, useMarkdownParser, type MarkdownParser, type MarkdownToken } from '@/lib/client'

/**
 * Assistant text as Markdown (markdown-it's tokens, see lib/client/markdown.ts), built from
 * React elements only: no HTML string from the text is ever parsed, and only the attributes
 * named here (a checked `href`, a list's `start`, a column's alignment as a class) reach the
 * page. `trailing` goes at the end of the last block of text, e.g. a streaming cursor.
 */
export function Markdown({ text, trailing }: { text: string; trailing?: ReactNode }) {
  const parse = useMarkdownParser()
  // The parser is a chunk of its own (see lib/client/markdown-parser.ts): until it is here, the text as plain paragraphs.
  return parse ? <Parsed parse={parse} text={text} trailing={trailing} /> : <PlainText text={text} trailing={trailing} />
}

/** The text's paragraphs (blank-line separated), line breaks kept: all of it, without Markdown's structure. */
function PlainText({ text, trailing }: { text: string; trailing?: ReactNode }) {
  const paragraphs = text.split(/\n{2,}/).filter((paragraph) => paragraph.trim() !== '')
  if (paragraphs.length === 0) return trailing ? <p>{trailing}</p> : null
  return (
    <div className="space-y-3 whitespace-pre-wrap break-words">
      {paragraphs.map((paragraph, index) => (
        <p key={index}>
          {paragraph}
          {index === paragraphs.length - 1 ? trailing : null}
        </p>
      ))}
    </div>
  )
}

function Parsed({ parse, text, trailing }: { parse: MarkdownParser; text: string; trailing?: ReactNode }) {
  const { tree, placed } = useMemo(() => {
    const tree = buildTree(parse(text))
    return { tree, placed: placeTrailing(tree) }
  }, [parse, text])
  if (tree.length === 0) return trailing ? <p>{trailing}</p> : null
  return (
    <div className="space-y-3 break-words">
      <Nodes nodes={tree} trailing={trailing} />
      {!placed && trailing}
    </div>
  )
}

/** A block or inline element with its children, or a leaf token (text, code, break, rule). */
type Node = { kind: 'element'; open: MarkdownToken; children: Node[]; trailing?: boolean } | { kind: 'leaf'; token: MarkdownToken; trailing?: boolean }

function buildTree(tokens: MarkdownToken[]): Node[] {
  const root: Node[] = []
  const stack: Node[][] = [root]
  const add = (token: MarkdownToken) => {
    const siblings = stack.at(-1)!
    if (token.nesting === 1) {
      const node: Node = { kind: 'element', open: token, children: [] }
      siblings.push(node)
      stack.push(node.children)
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop()
    } else if (token.type === 'inline') {
      for (const child of token.children ?? []) add(child)
    } else {
      siblings.push({ kind: 'leaf', token })
    }
  }
  for (const token of tokens) add(token)
  return root
}

const TEXT_BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'ul', 'ol'])

/** Marks where `trailing` goes: inside the last text block, if the text ends with one. */
function placeTrailing(tree: Node[]): boolean {
  let last = tree.at(-1)
  if (!last || last.kind !== 'element' || !TEXT_BLOCKS.has(last.open.tag)) return false
  // Into the last item of a list, the last paragraph of a quote, and so on.
  while (last.kind === 'element') {
    const inner: Node | undefined = last.children.at(-1)
    if (!inner || inner.kind !== 'element' || !TEXT_BLOCKS.has(inner.open.tag)) break
    last = inner
  }
  last.trailing = true
  return true
}

function Nodes({ nodes, trailing }: { nodes: Node[]; trailing: ReactNode }) {
  return (
    <>
      {nodes.map((node, index) => (
        <Fragment key={index}>{node.kind === 'leaf' ? renderLeaf(node.token) : renderElement(node, trailing)}</Fragment>
      ))}
    </>
  )
}

function renderElement(node: Extract<Node, { kind: 'element' }>, trailing: ReactNode): ReactNode {
  const { open } = node
  const children = (
    <>
      <Nodes nodes={node.children} trailing={trailing} />
      {node.trailing && trailing}
    </>
  )
  switch (open.tag) {
    case 'p':
      // A tight list's paragraphs are hidden: their text sits right in the item.
      return open.hidden ? children : <p>{children}</p>
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      // Below the page's own headings: an answer's "# Title" is a level-3 heading at most.
      const level = Number(open.tag.slice(1))
      const size = level <= 2 ? 'text-base' : 'text-sm'
      return (
        <p role="heading" aria-level={Math.min(6, level + 2)} className={`${size} font-semibold text-zinc-900 dark:text-zinc-50`}>
          {children}
        </p>
      )
    }
    case 'ul':
      return <ul className="list-disc space-y-1 pl-5 marker:text-zinc-400">{children}</ul>
    case 'ol': {
      const start = Number(open.attrGet('start') ?? 1)
      return (
        <ol start={Number.isSafeInteger(start) ? start : 1} className="list-decimal space-y-1 pl-5 marker:text-zinc-500">
          {children}
        </ol>
      )
    }
    case 'li':
      return <li className="pl-1 [&>p]:my-1">{children}</li>
    case 'blockquote':
      return <blockquote className="space-y-2 border-l-2 border-zinc-300 pl-3 text-zinc-600 dark:border-zinc-600 dark:text-zinc-400">{children}</blockquote>
    case 'table':
      return (
        <div className="overflow-x-auto">
          <table className="min-w-full border-collapse text-left text-sm">{children}</table>
        </div>
      )
    case 'thead':
      return <thead className="border-b border-zinc-300 dark:border-zinc-600">{children}</thead>
    case 'tbody':
      return <tbody className="divide-y divide-zinc-200 dark:divide-zinc-700">{children}</tbody>
    case 'tr':
      return <tr>{children}</tr>
    case 'th':
      return <th className={`px-2 py-1 font-semibold text-zinc-900 dark:text-zinc-50 ${alignment(open)}`}>{children}</th>
    case 'td':
      return <td className={`px-2 py-1 ${alignment(open)}`}>{children}</td>
    case 'strong':
      return <strong className="font-semibold text-zinc-900 dark:text-zinc-50">{children}</strong>
    case 'em':
      return <em>{children}</em>
    case 's':
      return <s>{children}</s>
    case 'a': {
      const href = safeHref(String(open.attrGet('href') ?? ''))
      return href ? <ExternalLink href={href}>{children}</ExternalLink> : children
    }
    default:
      return children
  }
}

function renderLeaf(token: MarkdownToken): ReactNode {
  switch (token.type) {
    case 'text':
      return token.content
    case 'softbreak':
    case 'hardbreak':
      return <br />
    case 'code_inline':
      return <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">{token.content}</code>
    case 'fence':
    case 'code_block': {
      const language = token.info.trim().split(/\s+/)[0] || undefined
      return (
        <pre className="overflow-x-auto rounded-lg bg-zinc-900 px-3 py-2.5 text-[13px] leading-relaxed text-zinc-100 dark:bg-black/60">
          <code data-language={language}>{token.content.replace(/\n$/, '')}</code>
        </pre>
      )
    }
    case 'hr':
      return <hr className="border-zinc-200 dark:border-zinc-700" />
    case 'image': {
      // Shown as a link to the picture: the page loads nothing from elsewhere (CSP img-src
      // 'self'), and a remote image in an answer would tell its server who read it.
      const href = safeHref(String(token.attrGet('src') ?? ''))
      const alt = token.children?.map((child) => child.content).join('') || 'image'
      return href ? <ExternalLink href={href}>{alt}</ExternalLink> : alt
    }
    default:
      // Anything else markdown-it may add (html tokens cannot occur: html is off) shows its text.
      return token.content
  }
}

function alignment(token: MarkdownToken): string {
  const style = String(token.attrGet('style') ?? '')
  return style.includes('right') ? 'text-right' : style.includes('center') ? 'text-center' : 'text-left'
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-sky-700 underline decoration-sky-700/30 underline-offset-2 hover:decoration-sky-700 dark:text-sky-400 dark:decoration-sky-400/30 dark:hover:decoration-sky-400"
    >
      {children}
    </a>
  )
}
