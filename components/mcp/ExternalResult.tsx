'use client'

import { z } from 'zod'
import { AlertIcon } from '../icons'
import { JsonView } from '../JsonView'

// What the card needs of a CallToolResult; anything else in it is kept, not shown.
const blockSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional() }),
  z.object({ type: z.literal('resource'), resource: z.object({ uri: z.string(), text: z.string().optional() }) }),
  z.object({ type: z.string() }),
])
const resultSchema = z.object({ content: z.array(blockSchema), structuredContent: z.unknown().optional(), isError: z.boolean().optional() })

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/**
 * An external tool's result (its `CallToolResult`): every text block as text on the page, images
 * as images, `structuredContent` in the JSON view, and `isError` said as an error. A result of
 * another shape is said to be one, never shown half.
 */
export function ExternalResult({ result }: { result: unknown }) {
  const parsed = resultSchema.safeParse(result)
  if (!parsed.success) {
    return (
      <p role="alert" className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200">
        <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
        <span>The server’s result could not be shown: it is not a tool result.</span>
      </p>
    )
  }
  const { content, structuredContent, isError } = parsed.data
  return (
    <div className={`space-y-2 rounded-lg p-3 text-sm ${isError ? 'bg-red-50 text-red-900 dark:bg-red-500/10 dark:text-red-100' : 'bg-zinc-50 text-zinc-800 dark:bg-zinc-950/60 dark:text-zinc-200'}`} data-testid="external-result">
      {isError ? (
        <p role="alert" className="flex items-center gap-2 font-medium">
          <AlertIcon className="h-4 w-4 shrink-0" />
          The tool reported an error
        </p>
      ) : null}
      {content.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      {structuredContent !== undefined ? (
        <div className="border-t border-zinc-200 pt-2 dark:border-zinc-800">
          <JsonView value={structuredContent} />
        </div>
      ) : null}
    </div>
  )
}

function Block({ block }: { block: z.infer<typeof blockSchema> }) {
  if ('text' in block && block.type === 'text') return <p className="whitespace-pre-wrap break-words">{block.text}</p>
  if (block.type === 'image' && 'data' in block) {
    if (!IMAGE_TYPES.has(block.mimeType) || !/^[A-Za-z0-9+/=]+$/.test(block.data)) return <p className="text-zinc-500">[an image of type {block.mimeType}]</p>
    return <img src={`data:${block.mimeType};base64,${block.data}`} alt="Image from the tool" className="max-h-80 max-w-full rounded-md" />
  }
  if (block.type === 'resource_link' && 'uri' in block) return <p className="break-all">Resource: {block.name ?? block.uri}</p>
  if (block.type === 'resource' && 'resource' in block) {
    return block.resource.text !== undefined ? <p className="whitespace-pre-wrap break-words">{block.resource.text}</p> : <p className="break-all">Resource: {block.resource.uri}</p>
  }
  return <p className="text-zinc-500">[{block.type} content]</p>
}
