import { inputRequired, inputResponse, type InputRequest } from '@modelcontextprotocol/server'
import { scoped, spawn, suspend, withResolvers, type Operation } from 'effection'
import type { BridgeElicitRequest } from '../../runtime/bridge-elicit-request'
import { ToolJournal, type JournalEntry } from '../../runtime/journal'
import { createJournalingClient, type ToolEvent } from '../../runtime/journaling-client'
import { runTool } from '../../runtime/run-tool'
import type { ToolSampleRequest } from '../../runtime/tool-client'
import { encodeModelContext } from '../../tools/model-context'
import type { AnyMcpTool, SampleResult } from '../../tools/types'
import { toSamplingRequest, samplingText } from './sampling'

/** How one round of a tool call ended: with the tool's result, or with questions for the client. */
export type RoundOutcome =
  | { kind: 'complete'; result: unknown }
  | { kind: 'input'; inputRequests: Record<string, InputRequest>; journal: JournalEntry[] }
  /** `beforeEffect` said to stop, with `reason`. */
  | { kind: 'stopped'; reason: unknown }

export interface RunRoundOptions {
  tool: AnyMcpTool
  params: unknown
  callId: string
  /** What earlier rounds recorded; replayed, never redone. */
  journal: readonly JournalEntry[]
  /** The client's answers to the previous round's `inputRequests`. */
  responses: Record<string, unknown> | undefined
  /** Whether the client samples (`ctx.sample` becomes a request to it); otherwise `sample` answers. */
  clientSamples: boolean
  /** The app's own model. */
  sample(request: ToolSampleRequest): Operation<SampleResult>
  /** Logs and progress not already sent by an earlier round. */
  emit(event: ToolEvent): void
  /**
   * Called once before the round first does something a second run of it must not redo: a
   * step's work, or a call to the app's own model. A round that only replays and asks needs no
   * claim: presented twice, it asks the same question twice. What it returns, if anything, ends
   * the round as `stopped` (the tool is halted, out of reach of its own `catch` blocks).
   */
  beforeEffect(): Operation<unknown>
}

/**
 * One round of a stateless tool call: the tool is run again from its journal (so nothing it
 * received before is asked again), the client's answers are checked and recorded, and the
 * tool runs on until it finishes or needs something only the client can give — the first
 * question without an answer, or a model answer when the client samples. Then the tool is
 * halted (its `finally` blocks run, its `catch` blocks do not) and the round ends with the
 * journal so far, for the next round to replay.
 */
export function* runRound(options: RunRoundOptions): Operation<RoundOutcome> {
  const { tool, params, callId, responses, clientSamples } = options
  const journal = [...options.journal]
  const needs = withResolvers<RoundOutcome>()

  function* ask(inputRequests: Record<string, InputRequest>): Operation<never> {
    return yield* end({ kind: 'input', inputRequests, journal })
  }

  function* end(outcome: RoundOutcome): Operation<never> {
    needs.resolve(outcome)
    yield* suspend()
    throw new Error('unreachable: a round that has ended is halted')
  }

  function* beforeEffect(): Operation<void> {
    const reason = yield* options.beforeEffect()
    if (reason !== undefined) yield* end({ kind: 'stopped', reason })
  }

  const client = createJournalingClient({
    journal: new ToolJournal(tool.name, options.journal),
    *record(entry) {
      journal.push(entry)
    },
    *ask(request) {
      const key = inputKey(request.key, request.id.seq)
      const view = inputResponse(responses, key)
      let problem: string | undefined
      if (view.kind === 'elicit') {
        const answer = view.action === 'accept' ? { action: 'accept' as const, content: view.content ?? {} } : { action: view.action }
        const checked = request.validate(answer)
        if (checked.ok) {
          journal.push({ seq: request.id.seq, kind: 'elicit', key: request.key, answer })
          return checked.answer
        }
        problem = `That answer was not accepted: ${checked.message}. Please answer again.`
      }
      return yield* ask({ [key]: elicitation(request, problem) })
    },
    *sample(request) {
      const key = inputKey('sample', request.seq)
      const view = inputResponse(responses, key)
      if (view.kind === 'sampling') return { text: samplingText(view.result) }
      if (clientSamples) return yield* ask({ [key]: inputRequired.createMessage(toSamplingRequest(request)) })
      yield* beforeEffect()
      return yield* options.sample(request)
    },
    emit: options.emit,
    beforeStep: beforeEffect,
  })

  // The tool runs in a child of this scope until it finishes or the round needs something: when
  // the scope ends, the child is halted. (Cheaper than a race, which makes a task of each side.)
  return yield* scoped(function* () {
    yield* spawn(function* () {
      needs.resolve({ kind: 'complete', result: yield* runTool({ tool, params, client, callId }) })
    })
    return yield* needs.operation
  })
}

/** The `inputRequests` key of ctx call `seq`: readable, and unique within the call. */
function inputKey(name: string, seq: number): string {
  return `${name}-${seq}`
}

/**
 * A question as a form-mode elicitation: the key's response schema with the context under
 * `x-model-context`, and the message with the context after its boundary (for clients whose
 * SDK drops unknown schema keywords). A rejected answer's reason leads the message.
 */
function elicitation(request: BridgeElicitRequest, problem: string | undefined): InputRequest {
  const text = problem ? `${problem}\n\n${request.text}` : request.text
  const { message } = encodeModelContext({ message: text, schema: {}, context: request.context })
  return inputRequired.elicit({ message, requestedSchema: request.schema as never })
}
