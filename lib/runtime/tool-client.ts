import type { Operation } from 'effection'
import type { LogLevel } from '../protocol/events'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { ElicitAnswer, SampleResult } from '../tools/types'
import type { PendingQuestion } from './pending-question'

/** What a client offers a tool; a tool's `.requires()` is checked against it. */
export interface ToolClientCapabilities {
  elicitation: boolean
  sampling: boolean
}

/** One call to the model, as the runtime hands it to the client. */
export interface ToolSampleRequest {
  /** The tool that asked: a model may answer each tool in its own way (the offline model's skills do). */
  toolName?: string
  /** The tool's ctx-call number (shared with elicit, log and notify). */
  seq: number
  /** The branch that asked: 0 for the tool itself. */
  depth: number
  messages: ExtendedMessage[]
  system?: string
  maxTokens?: number
  temperature?: number
  stopSequences?: string[]
  /** JSON Schema the answer must follow, when the tool asked for structured output. */
  schema?: Record<string, unknown>
}

/** A journaled step: work whose result must be the same on every run of the tool. */
export interface ToolStepRequest {
  /** The tool's ctx-call number. */
  seq: number
  name: string
  depth: number
}

export interface ToolLogEntry {
  seq: number
  level: LogLevel
  message: string
}

export interface ToolProgress {
  seq: number
  message: string
  progress?: number
}

/**
 * Whoever runs a tool: in the chat, the bridge to the browser and the chat's model; in tests,
 * a scripted client. The runtime numbers the calls, enforces limits, validates answers and
 * builds results; a client only carries requests out and answers back.
 */
export interface ToolClient {
  readonly capabilities: ToolClientCapabilities
  /** The model's answer; cancelled (its work halted) when the branch that asked is. */
  sample(request: ToolSampleRequest): Operation<SampleResult>
  /**
   * The user's answer, checked: a client hands back only what `request.validate` accepted
   * (the parsed answer), so the answer is validated once, by the question it answers.
   */
  elicit(request: PendingQuestion): Operation<ElicitAnswer<unknown>>
  /**
   * `ctx.step`: run `work` once and keep its result. A client that journals (the chat's
   * sessions) records it and, when the tool is replayed, returns the record without running it.
   */
  step<T>(request: ToolStepRequest, work: () => Operation<T>): Operation<T>
  log(entry: ToolLogEntry): Operation<void>
  notify(progress: ToolProgress): Operation<void>
}
