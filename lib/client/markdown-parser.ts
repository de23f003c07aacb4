import { useEffect, useState } from 'react'
import type { MarkdownToken } from './markdown'

export type MarkdownParser = (text: string) => MarkdownToken[]

let loaded: MarkdownParser | undefined
let loading: Promise<MarkdownParser> | undefined

/**
 * markdown-it is a fifth of the chat's JavaScript and the empty chat shows no Markdown, so
 * the parser is its own chunk, fetched once: when the first message is on screen, or sooner
 * if asked. Until then text shows as plain paragraphs (components/Markdown.tsx).
 */
export function loadMarkdownParser(): Promise<MarkdownParser> {
  loading ??= import('./markdown').then((module) => {
    loaded = module.parseMarkdown
    return loaded
  })
  return loading
}

/** The Markdown parser once it has loaded (at once if it already has); loading starts on first use. */
export function useMarkdownParser(): MarkdownParser | undefined {
  const [parser, setParser] = useState(() => loaded)
  useEffect(() => {
    if (parser) return
    let current = true
    loadMarkdownParser().then(
      (ready) => {
        if (current) setParser(() => ready)
      },
      () => {
        // Offline before the chunk arrived: the text stays plain, which is still all of it.
      },
    )
    return () => {
      current = false
    }
  }, [parser])
  return parser
}
