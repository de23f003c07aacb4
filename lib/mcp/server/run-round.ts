import { inputRequired, inputResponse, type InputRequest } from '@modelcontextprotocol/server'
import { scoped, spawn, suspend, withResolvers, type Operation } from 'effection'
import { QUESTION_META_KEY, type QuestionMeta } from '../../protocol/question-form'
import type { PendingQuestion } from '../../runtime/pending-question'
import { ToolJournal, type JournalEntry } from '../../runtime/journal'
import { createJournalingClient, type ToolEvent } from '../../runtime/journaling-client'
import { runTool } from '../../runtime/run-tool'
import type { ToolSampleRequest } from '../../runtime/tool-client'
import type { AnyMcpTool, ElicitAnswer, SampleResult } from '../../tools/types'
import { toSamplingRequest, samplingText } from './sampling'
import { formProblem } from './tool-forms'

/** How one round of a tool call ended: with the tool's result, or with questions for the client. */
export type RoundOutcome =
  | { kind: 'complete'; result: unknown }
  | { kind: 'input'; inputRequests: Record<string, InputRequest>; journal: JournalEntry[] }
  /** `beforeEffect` said to stop, with `reason`. */
  | { kind: 'stopped'; reason: unknown }
  /** The tool asked a question whose form no client could show (see `formProblem`). */
  | { kind: 'failed'; message: string }

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
   * The `ui://` resource of the MCP App that answers question `key`, when the client negotiated
   * app-rendered elicitations (SEP-3118) and the plugin has one; absent, every question is a
   * plain form.
   */
  appFor?(key: string): string | undefined
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
        const checked = checkAnswer(request, view.action === 'accept' ? { action: 'accept', content: view.content ?? {} } : { action: view.action })
        if (checked.ok) {
          // Recorded as the tool's answer, not the form's: a replay checks it like the chat's.
          journal.push({ seq: request.id.seq, kind: 'elicit', key: request.key, answer: checked.recorded })
          return checked.answer
        }
        problem = `That answer was not accepted: ${checked.problem}. Please answer again.`
      }
      const unshowable = formProblem({ toolName: tool.name, key: request.key, schema: request.form.schema })
      if (unshowable) return yield* end({ kind: 'failed', message: unshowable })
      return yield* ask({ [key]: elicitation({ request, problem, resourceUri: options.appFor?.(request.key) }) })
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
 * A form's answer as the tool's: the form's content converted (a choice to the part of the
 * answer it stands for; a value the form did not offer is refused here), then checked against
 * the key's response schema. `recorded` is the converted answer before parsing, what the journal
 * keeps; `answer` is what the tool receives.
 */
function checkAnswer(
  request: PendingQuestion,
  given: ElicitAnswer<Record<string, unknown>>,
): { ok: true; recorded: ElicitAnswer<unknown>; answer: ElicitAnswer<unknown> } | { ok: false; problem: string } {
  let recorded: ElicitAnswer<unknown> = given
  if (given.action === 'accept') {
    const converted = request.form.toResponse(given.content)
    if (!converted.ok) return { ok: false, problem: converted.problem }
    recorded = { action: 'accept', content: converted.response }
  }
  const checked = request.validate(recorded)
  return checked.ok ? { ok: true, recorded, answer: checked.answer } : { ok: false, problem: checked.message }
}

/**
 * A question as a form-mode elicitation a person can answer: the question's form (flat, titled,
 * its choices listed), the message in words (a rejected answer's reason first), and, for
 * programs, the question's context and what its choices stand for in `_meta[QUESTION_META_KEY]`
 * — never in the message. With `resourceUri`, the host may show the question's MCP App instead
 * of the form (`_meta.ui`, SEP-3118); the answer is checked the same either way.
 */
function elicitation({ request, problem, resourceUri }: { request: PendingQuestion; problem?: string; resourceUri?: string }): InputRequest {
  const { schema, answers, defaults } = request.form
  const question: QuestionMeta = {
    tool: request.id.toolName,
    key: request.key,
    context: request.context,
    ...(Object.keys(answers).length > 0 ? { answers } : {}),
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
  }
  return inputRequired.elicit({
    message: problem ? `${problem}\n\n${request.message}` : request.message,
    requestedSchema: schema as never,
    _meta: { [QUESTION_META_KEY]: question, ...(resourceUri ? { ui: { resourceUri } } : {}) },
  })
}
