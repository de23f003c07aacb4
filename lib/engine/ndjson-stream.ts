import type { Operation } from 'effection'
import { toChatFailure } from '../http/errors'
import { logFailure } from '../http/failure-log'
import type { ChatEvent } from '../protocol/events'
import type { TurnEndLine } from '../protocol/ended-call'
import type { TurnRunner } from './turn-runner'

/**
 * Prepare a turn, then run it with `runner` and stream the events it emits as NDJSON, all in one
 * task. What `prepare` throws (a refusal) rejects the returned promise and nothing is streamed;
 * once it has returned, the stream is handed over. Cancelling the stream (the client went away)
 * or aborting `signal` halts the turn.
 *
 * The stream is pulled: events wait in a queue as lines and are written only when the
 * consumer reads (`highWaterMark: 0`), every line ready by the end of that turn of the event
 * loop in one chunk. A slow reader therefore holds back the bytes, not the turn: the queue
 * holds at most what one turn emits, which the limits on model steps, output tokens and tool
 * calls per step bound.
 *
 * With `keep` (a turn of a chat kept on the server), each batch — the events of one chunk — is
 * handed to `keep` and written only once it has been stored. Invariant: **every event the
 * browser has seen is stored**; a `kill -9` loses at most the batch being stored and what the
 * turn had not yet emitted, which the browser never received either. The first call (which
 * stores the turn's input with its batch) comes at the first read: with what the turn emitted by
 * the end of that turn of the event loop, or with no events when it had none yet, so that the
 * input is stored before the turn waits on anything (a model's first words). A batch `keep` refuses
 * (the chat is full, the store is down) is not written: the stream ends the turn with an `error`
 * event of the refusal's code (`chat_too_large`, `store_unavailable`) — the one event the
 * browser sees that the chat does not keep, since the store has just refused it.
 *
 * With `follow` (the request asked to follow its questions on its response), once the turn has
 * ended and every line is written, `follow` is asked for what comes after: when it gives a stream
 * (the turn left questions waiting), a `turn_end` line is written, `onEnd` is told (the turn is
 * over: its request is no longer in flight), and the stream's bytes follow until it ends, the
 * body with it; cancelling the body cancels it.
 */
export async function openNdjsonStream<P>({
  runner,
  signal,
  prepare,
  run,
  onEnd,
  keep,
  follow,
}: {
  /** Where the turn runs: one of the chat server's long-lived tasks. */
  runner: TurnRunner
  signal?: AbortSignal
  /** Everything to decide (and refuse) before the first byte. */
  prepare(): Operation<P>
  run(prepared: P, emit: (event: ChatEvent) => void): Operation<void>
  /**
   * Called once when the body has ended: written to the end, or cancelled (never when refused);
   * with the code of the `error` event that ended the turn, when one did (the request's log line says it).
   */
  onEnd?: (errorCode?: string) => void
  /**
   * Stores a batch of the prepared turn's events before it is written, the first maybe empty (see
   * above), with each event's JSON as it is written (`JSON.stringify(event)`, the line less its
   * newline): the store keeps that text. Absent, nothing is stored.
   */
  keep?(prepared: P, events: readonly ChatEvent[], json: readonly string[]): Promise<void>
  /** What the body goes on with once the turn has ended (see above); undefined: it ends with the turn. Never rejects. */
  follow?(prepared: P): Promise<ReadableStream<Uint8Array> | undefined>
}): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder()
  /** The events emitted and not yet written, each as JSON: the NDJSON lines, less their newlines. */
  const lines: string[] = []
  /** The events of `lines`, kept only when they are to be stored. */
  const events: ChatEvent[] = []
  let plan: { value: P } | undefined
  /** Whether `keep` has been called: its first call stores the turn's input. */
  let keptOnce = !keep
  let ended = false
  /** The code of the last `error` event emitted or written: the turn's failure, if it failed. */
  let errorCode: string | undefined
  // False once the client has gone: the turn's clean-up may still report, to nobody.
  let open = true
  /** The consumer waiting in `pull` for a line or the end. */
  let wake: (() => void) | undefined
  const notify = () => {
    const resolve = wake
    wake = undefined
    resolve?.()
  }

  const emit = (event: ChatEvent) => {
    if (!open) return
    lines.push(JSON.stringify(event))
    if (event.type === 'error') errorCode = event.code
    if (keep) events.push(event)
    notify()
  }
  let prepared: (outcome: { ok: true } | { ok: false; error: unknown }) => void = () => {}
  const ready = new Promise<{ ok: true } | { ok: false; error: unknown }>((resolve) => (prepared = resolve))
  // The turn settles once it has ended, its own clean-up (ending its tools' work) included, and
  // a stopped one once its runner has been torn down: that has finished before the body ends.
  const task = runner.run(function* () {
    let value: P
    try {
      value = yield* prepare()
    } catch (error) {
      prepared({ ok: false, error })
      return
    }
    plan = { value }
    prepared({ ok: true })
    yield* run(value, emit)
  })
  const settle = () => {
    ended = true
    notify()
    prepared({ ok: false, error: new Error('The chat server stopped before the turn was prepared.') })
  }
  const halt = () => {
    open = false
    lines.length = 0
    events.length = 0
    notify()
    task.halt().catch((error: unknown) => logFailure('turn_stop_failed', 'stopping a chat turn failed', error))
  }
  task.then(settle, (error: unknown) => {
    settle()
    // Halted on purpose; otherwise run() reports its own failures as events, and reaching here is a bug.
    if (open) logFailure('turn_crashed', 'chat turn crashed', error)
  })
  const outcome = await ready
  if (!outcome.ok) throw outcome.error
  if (signal?.aborted) halt()
  else signal?.addEventListener('abort', halt, { once: true })

  /** The turn is over (`onEnd`, told once): its body has ended, or it goes on following (`follow`). */
  let reported = false
  const report = () => {
    if (reported) return
    reported = true
    signal?.removeEventListener('abort', halt)
    onEnd?.(errorCode)
  }
  /** What the body goes on with once the turn has ended (`follow`): read here until it ends. */
  let after: ReadableStreamDefaultReader<Uint8Array> | undefined
  let askedAfter = !follow

  /** Stores the turn's input alone when no batch has taken it: what `keep` refused, if it did. */
  const keepInput = async () => {
    if (keptOnce) return undefined
    keptOnce = true
    return await stored(() => keep!(plan!.value, [], []))
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (after) {
          const next = await after.read().catch(() => ({ done: true as const, value: undefined }))
          if (next.done) closeQuietly(controller)
          else controller.enqueue(next.value)
          return
        }
        if (!keptOnce) {
          // The first read: the input goes with what the turn emits in this turn of the event loop, or alone.
          if (!ended && open) await new Promise<void>((resolve) => setImmediate(resolve))
          const refusal = lines.length === 0 ? await keepInput() : undefined
          if (refusal) {
            errorCode = refusal.code
            if (open) controller.enqueue(encoder.encode(`${JSON.stringify(refusal)}\n`))
            halt()
            return
          }
        }
        // Halted (cancelled, or the request's signal): nothing more is written, and the body
        // ends once the turn's clean-up has run, as a client waiting for the end expects.
        while (!ended && (lines.length === 0 || !open)) {
          await new Promise<void>((resolve) => (wake = resolve))
        }
        // What the turn emits in this turn of the event loop goes out as one chunk: one write
        // to the socket instead of one per event (a model's text comes in many small deltas).
        if (!ended && open) await new Promise<void>((resolve) => setImmediate(resolve))
        /** This pull's batch, stored and not yet written: with the `turn_end` after it, when the turn is over, in the same write. */
        let written = ''
        if (lines.length > 0 && open) {
          const json = lines.splice(0)
          const chunk = `${json.join('\n')}\n`
          const batch = events.splice(0)
          keptOnce = true
          const refusal = keep && plan ? await stored(() => keep(plan!.value, batch, json)) : undefined
          if (refusal) {
            errorCode = refusal.code
            // Not stored, so not written: the turn ends here, with why. The body ends once its clean-up has run.
            if (open) controller.enqueue(encoder.encode(`${JSON.stringify(refusal)}\n`))
            halt()
            return
          }
          // Stopped while the batch was stored: it is not written (the client has gone), and the clean-up ends the body.
          if (open) written = chunk
          // Emitted while the batch was stored: the next pull writes them, before the body ends.
          if (lines.length > 0 && open) return controller.enqueue(encoder.encode(written))
        }
        lines.length = 0
        if (ended && open && !askedAfter && plan) {
          askedAfter = true
          const rest = await follow!(plan.value)
          if (rest && open) {
            after = rest.getReader()
            controller.enqueue(encoder.encode(`${written}${TURN_END}\n`))
            report()
            return
          }
          await rest?.cancel()
        }
        if (written && open) controller.enqueue(encoder.encode(written))
        if (ended || !open) {
          open = false
          closeQuietly(controller)
          report()
        }
      },
      async cancel() {
        if (after) return await after.cancel()
        halt()
        // Gone before its first read: the turn's input is kept all the same.
        await keepInput()
        report()
      },
    },
    { highWaterMark: 0 },
  )
}

/** Runs a store's write; what it refused as the `error` event that ends the turn (a failure nobody expects, a bug, as `turn_failed`). */
async function stored(write: () => Promise<void>): Promise<Extract<ChatEvent, { type: 'error' }> | undefined> {
  try {
    await write()
    return undefined
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return { type: 'error', code: failure.code, message: failure.message }
    logFailure('turn_store_failed', 'storing a chat turn failed', error)
    return { type: 'error', code: 'turn_failed', message: 'The chat could not be stored; this turn stopped here.' }
  }
}

const TURN_END = JSON.stringify({ type: 'turn_end' } satisfies TurnEndLine)

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array>) {
  try {
    controller.close()
  } catch {
    // Already cancelled by the consumer: nothing to close.
  }
}
