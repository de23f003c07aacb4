import type { Operation } from 'effection'
import type { ElicitAnswer, SampleResult } from '../tools/types'
import type { Question } from '../protocol/question'
import type { PendingQuestion } from './pending-question'
import { ElicitResponseError } from './errors'
import type { ToolClient, ToolClientCapabilities, ToolLogEntry, ToolProgress, ToolSampleRequest, ToolStepRequest } from './tool-client'

/** A scripted model answer: text, a full result, or an operation (to be slow, or to look at the request). */
export type MockSampleResponse = string | SampleResult | ((request: ToolSampleRequest) => Operation<string | SampleResult>)

/** A scripted human answer, or an operation that decides from the question, as it would travel to the browser. */
export type MockElicitResponse = ElicitAnswer<unknown> | ((request: Question) => Operation<ElicitAnswer<unknown>>)

export interface MockBranchClient extends ToolClient {
  readonly sampleCalls: ToolSampleRequest[]
  /** Every question the tool asked, as it would travel to the browser (lib/protocol's `Question`). */
  readonly elicitCalls: Question[]
  readonly logs: ToolLogEntry[]
  readonly notifications: ToolProgress[]
  /** Every `ctx.step`, in order; the mock runs each one. */
  readonly steps: ToolStepRequest[]
}

export interface MockBranchClientOptions {
  /** Answers for `ctx.sample`, used in order. */
  sampleResponses?: MockSampleResponse[]
  /** Answers for `ctx.elicit`, used in order. */
  elicitResponses?: MockElicitResponse[]
  capabilities?: Partial<ToolClientCapabilities>
}

/**
 * A client that scripts both the model and the human, and records what the tool asked: run a
 * tool with `runBranchTool` and assert on `sampleCalls` and `elicitCalls`. Running out of
 * scripted answers is an error that says which call had none.
 */
export function createMockBranchClient({
  sampleResponses = [],
  elicitResponses = [],
  capabilities = {},
}: MockBranchClientOptions = {}): MockBranchClient {
  const sampleCalls: ToolSampleRequest[] = []
  const elicitCalls: Question[] = []
  const logs: ToolLogEntry[] = []
  const notifications: ToolProgress[] = []
  const steps: ToolStepRequest[] = []

  return {
    capabilities: { elicitation: true, sampling: true, ...capabilities },
    sampleCalls,
    elicitCalls,
    logs,
    notifications,
    steps,

    *sample(request) {
      sampleCalls.push(request)
      const response = sampleResponses[sampleCalls.length - 1]
      if (response === undefined) {
        throw new Error(`The mock client has no sample response for call ${sampleCalls.length} (${describeSample(request)}).`)
      }
      const answer = typeof response === 'function' ? yield* response(request) : response
      return typeof answer === 'string' ? { text: answer, usage: estimateUsage(request, answer) } : answer
    },

    *elicit(request: PendingQuestion) {
      const call = request.question
      elicitCalls.push(call)
      const response = elicitResponses[elicitCalls.length - 1]
      if (response === undefined) {
        throw new Error(`The mock client has no elicit response for call ${elicitCalls.length} ('${call.key}': ${JSON.stringify(call.message)}).`)
      }
      const answer = typeof response === 'function' ? yield* response(call) : response
      const checked = request.validate(answer)
      if (!checked.ok) throw new ElicitResponseError(`The ${checked.message}`, checked.issues)
      return checked.answer
    },

    *step(request, work) {
      steps.push(request)
      return yield* work()
    },

    *log(entry) {
      logs.push(entry)
    },

    *notify(progress) {
      notifications.push(progress)
    },
  }
}

function describeSample(request: ToolSampleRequest): string {
  const last = request.messages.at(-1)
  const text = last && typeof last.content === 'string' ? last.content : JSON.stringify(last ?? null)
  return `last message: ${JSON.stringify(text.slice(0, 80))}`
}

/** About four characters to a token, like the offline model. */
function estimateUsage(request: ToolSampleRequest, text: string): SampleResult['usage'] {
  return {
    inputTokens: Math.ceil((JSON.stringify(request.messages).length + (request.system?.length ?? 0)) / 4),
    outputTokens: Math.ceil(text.length / 4),
  }
}
