import { Fragment, type ReactNode } from 'react'
import { parseMarkdown, type BlockNode, type InlineNode } from '@/lib/client'

/**
 * Assistant text as Markdown, built from React elements only (no HTML from the text is
 * ever parsed). `trailing` goes at the end of the last block, e.g. a streaming cursor.
 */
export function Markdown({ text, trailing }: { text: string; trailing?: ReactNode }) {
  const blocks = parseMarkdown(text)
  if (blocks.length === 0) return trailing ? <p>{trailing}</p> : null
  const lastTextBlock = blocks.at(-1)?.type !== 'code' && blocks.at(-1)?.type !== 'rule'
  return (
    <div className="space-y-3 break-words">
      {blocks.map((block, index) => (
        <Block key={index} block={block} trailing={index === blocks.length - 1 && lastTextBlock ? trailing : undefined} />
      ))}
      {!lastTextBlock && trailing}
    </div>
  )
}

function Block({ block, trailing }: { block: BlockNode; trailing?: ReactNode }) {
  switch (block.type) {
    case 'paragraph':
      return (
        <p>
          <Inline nodes={block.children} />
          {trailing}
        </p>
      )
    case 'heading': {
      const size = block.level <= 2 ? 'text-base' : 'text-sm'
      return (
        <p role="heading" aria-level={Math.min(6, block.level + 2)} className={`${size} font-semibold text-zinc-900 dark:text-zinc-50`}>
          <Inline nodes={block.children} />
          {trailing}
        </p>
      )
    }
    case 'code':
      return (
        <pre className="overflow-x-auto rounded-lg bg-zinc-900 px-3 py-2.5 text-[13px] leading-relaxed text-zinc-100 dark:bg-black/60">
          <code data-language={block.language}>{block.text}</code>
        </pre>
      )
    case 'list': {
      const items = block.items.map((item, index) => (
        <li key={index} className="pl-1">
          <Inline nodes={item} />
          {index === block.items.length - 1 ? trailing : null}
        </li>
      ))
      return block.ordered ? (
        <ol start={block.start} className="list-decimal space-y-1 pl-5 marker:text-zinc-500">
          {items}
        </ol>
      ) : (
        <ul className="list-disc space-y-1 pl-5 marker:text-zinc-400">{items}</ul>
      )
    }
    case 'quote':
      return (
        <blockquote className="border-l-2 border-zinc-300 pl-3 text-zinc-600 dark:border-zinc-600 dark:text-zinc-400">
          <Inline nodes={block.children} />
          {trailing}
        </blockquote>
      )
    case 'rule':
      return <hr className="border-zinc-200 dark:border-zinc-700" />
  }
}

function Inline({ nodes }: { nodes: InlineNode[] }) {
  return (
    <>
      {nodes.map((node, index) => (
        <Fragment key={index}>{renderInline(node)}</Fragment>
      ))}
    </>
  )
}

function renderInline(node: InlineNode): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text
    case 'break':
      return <br />
    case 'strong':
      return (
        <strong className="font-semibold text-zinc-900 dark:text-zinc-50">
          <Inline nodes={node.children} />
        </strong>
      )
    case 'em':
      return (
        <em>
          <Inline nodes={node.children} />
        </em>
      )
    case 'code':
      return <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">{node.text}</code>
    case 'link':
      return (
        <a
          href={node.href}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-sky-700 underline decoration-sky-700/30 underline-offset-2 hover:decoration-sky-700 dark:text-sky-400 dark:decoration-sky-400/30 dark:hover:decoration-sky-400"
        >
          <Inline nodes={node.children} />
        </a>
      )
  }
}
