import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'

/**
 * A stream of the given parts that waits `delayMs` before each text delta or tool call
 * after the first, as a model producing tokens would. With `delayMs` 0 the whole answer is
 * ready at once, as from a model that has finished: every part is queued when the stream
 * starts (no timer, and no pull for each part). When `abortSignal` fires, the pending wait is
 * cleared and the stream errors with an `AbortError` at once, dropping what was not read.
 */
export function createPacedStream({
  parts,
  delayMs,
  abortSignal,
}: {
  parts: LanguageModelV3StreamPart[]
  delayMs: number
  abortSignal?: AbortSignal
}): ReadableStream<LanguageModelV3StreamPart> {
  let index = 0
  let contentSeen = false
  let pending: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined
  let onAbort: (() => void) | undefined

  const stopWaiting = () => {
    if (!pending) return
    clearTimeout(pending.timer)
    pending.resolve()
    pending = undefined
  }
  const detach = () => {
    if (onAbort) abortSignal?.removeEventListener('abort', onAbort)
    onAbort = undefined
  }
  const wait = () =>
    new Promise<void>((resolve) => {
      pending = { timer: setTimeout(() => ((pending = undefined), resolve()), delayMs), resolve }
    })

  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      if (abortSignal?.aborted) {
        controller.error(toAbortError(abortSignal.reason))
        return
      }
      onAbort = () => {
        detach()
        stopWaiting()
        controller.error(toAbortError(abortSignal?.reason))
      }
      abortSignal?.addEventListener('abort', onAbort, { once: true })
      if (delayMs > 0) return
      for (const part of parts) controller.enqueue(part)
      controller.close()
    },
    async pull(controller) {
      const part = parts[index++]
      const paced = part.type === 'text-delta' || part.type === 'tool-call'
      if (paced && contentSeen && delayMs > 0) {
        await wait()
        if (abortSignal?.aborted) return
      }
      contentSeen ||= paced
      controller.enqueue(part)
      if (index === parts.length) {
        detach()
        controller.close()
      }
    },
    cancel() {
      detach()
      stopWaiting()
    },
  })
}

/** Waits `ms`, as a model thinking would; rejects with an `AbortError` at once when `abortSignal` fires. */
export function thinkingPause(ms: number, abortSignal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abortSignal?.aborted) return reject(toAbortError(abortSignal.reason))
    const onAbort = () => {
      clearTimeout(timer)
      reject(toAbortError(abortSignal?.reason))
    }
    const timer = setTimeout(() => {
      abortSignal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    abortSignal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** The error a fetch-based provider would throw: the AI SDK reports it as an abort, not a failure. */
export function toAbortError(reason: unknown): Error {
  if (reason instanceof Error && (reason.name === 'AbortError' || reason.name === 'TimeoutError')) return reason
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The operation was aborted.'
  return new DOMException(message, 'AbortError')
}
