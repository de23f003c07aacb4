import type { CallToolResult } from '@modelcontextprotocol/client'
import { ALLOWED_FOR_THIS_CHAT } from './chat-allowance'

/**
 * The most of a result, as JSON, that the chat keeps: it is the tool message the model reads
 * and the conversation carries back on every request (whose messages are capped at 200,000
 * characters each), so a bigger one is refused with a clear error instead.
 */
export const MAX_RESULT_CHARACTERS = 150_000

/** A result the chat cannot use; its message is what the card shows. */
export class ExternalResultError extends Error {
  override name = 'ExternalResultError'
}

/**
 * The tool message for a server's result: the whole `CallToolResult` as JSON, when it fits.
 * `allowedForThisChat` adds the chat's own note beside it that the person allowed the tool for
 * the rest of the chat (`ALLOWED_FOR_THIS_CHAT`, read back by `allowedInChat`).
 */
export function encodeCallToolResult(result: CallToolResult, { allowedForThisChat = false }: { allowedForThisChat?: boolean } = {}): string {
  let text: string
  try {
    text = JSON.stringify({
      content: result.content,
      structuredContent: result.structuredContent,
      isError: result.isError,
      _meta: result._meta,
      ...(allowedForThisChat ? { [ALLOWED_FOR_THIS_CHAT]: true } : {}),
    })
  } catch (error) {
    throw new ExternalResultError(`The server's result cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (text.length > MAX_RESULT_CHARACTERS) {
    throw new ExternalResultError(
      `The server's result is too large to show: ${text.length.toLocaleString('en')} characters, and the chat keeps at most ${MAX_RESULT_CHARACTERS.toLocaleString('en')}.`,
    )
  }
  return text
}
