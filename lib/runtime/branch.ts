import { race, sleep, type Operation } from 'effection'
import type { z } from 'zod'
import { toJsonData } from '../tools/handoff'
import { formatElicitId } from '../protocol/elicit-id'
import { createElicitExchange } from '../tools/exchange'
import { checkLimits, type BranchLimits } from '../tools/limits'
import type { ExtendedMessage } from '../tools/sample-messages'
import type {
  AnyMcpTool,
  BranchContext,
  BranchOptions,
  ElicitId,
  ElicitResult,
  SampleRequest,
  SampleResult,
  StructuredSampleResult,
} from '../tools/types'
import type { LogLevel } from '../protocol/events'
import { PendingQuestion } from './pending-question'
import { BranchDepthError, BranchTimeoutError, ToolUsageError } from './errors'
import { describeIssues, toJsonSchema } from './json-schema'
import { parseStructuredOutput } from './structured-output'
import type { ToolClient } from './tool-client'
import { TokenBudget } from './token-budget'

/** What every branch of one tool call shares: the client, the ctx-call numbering, the limits. */
export interface ToolRun {
  readonly tool: AnyMcpTool
  readonly client: ToolClient
  readonly callId: string
  readonly parentSystemPrompt: string | undefined
  /** The runtime's and the tool's limits merged; each branch site may override them. */
  readonly limits: BranchLimits
  seq: number
  /** The key of the elicitation waiting for an answer, if one is. */
  pendingKey: string | undefined
}

interface BranchState {
  depth: number
  maxDepth: number
  parentMessages: readonly ExtendedMessage[]
  messages: ExtendedMessage[]
  /** The innermost token budget over this branch, if any branch around it has one. */
  budget: TokenBudget | undefined
}

/**
 * One branch of a tool's work, and the `ctx` its code receives. The tool itself is the root
 * (depth 0); `branch()` makes children with their own messages, budget and deadline.
 */
export class Branch {
  readonly toolName: string
  readonly callId: string
  readonly parentSystemPrompt: string | undefined
  readonly parentMessages: readonly ExtendedMessage[]
  readonly depth: number
  private readonly maxDepth: number
  private readonly own: ExtendedMessage[]
  private readonly budget: TokenBudget | undefined

  constructor(
    private readonly run: ToolRun,
    state: BranchState,
  ) {
    this.toolName = run.tool.name
    this.callId = run.callId
    this.parentSystemPrompt = run.parentSystemPrompt
    this.parentMessages = state.parentMessages
    this.depth = state.depth
    this.maxDepth = state.maxDepth
    this.own = state.messages
    this.budget = state.budget
    // Bound, so that `function* (params, { elicit, sample })` works.
    this.elicit = this.elicit.bind(this)
    this.sample = this.sample.bind(this)
    this.branch = this.branch.bind(this)
    this.log = this.log.bind(this)
    this.notify = this.notify.bind(this)
    this.step = this.step.bind(this)
  }

  /** The tool's own branch, depth 0. */
  static root(run: ToolRun, parentMessages: readonly ExtendedMessage[]): Branch {
    const { limits } = run
    return new Branch(run, {
      depth: 0,
      maxDepth: limits.maxDepth ?? Number.POSITIVE_INFINITY,
      parentMessages,
      messages: [],
      budget: limits.maxTokens === undefined ? undefined : new TokenBudget(limits.maxTokens, 0, undefined),
    })
  }

  get messages(): readonly ExtendedMessage[] {
    return this.own
  }

  /** This branch as the typed `ctx` a tool sees. */
  context<T extends BranchContext<never>>(): T {
    return this as unknown as T
  }

  *elicit(key: string, options: { message: string }): Operation<ElicitResult<unknown, unknown>> {
    const { run } = this
    const { tool } = run
    if (this.depth > 0) {
      throw new ToolUsageError(
        `Tool "${tool.name}" called ctx.elicit('${key}') in a branch at depth ${this.depth}. A branch works out a value without the user; only the tool itself (depth 0) may ask. Return what the branch found and call ctx.elicit after it.`,
      )
    }
    // Own keys only: a key such as "toString" must not find Object.prototype's.
    const spec = Object.hasOwn(tool.elicits, key) ? tool.elicits[key] : undefined
    if (!spec) throw new ToolUsageError(`Tool "${tool.name}" called ctx.elicit('${key}'), which its .elicits() does not declare.`)
    if (!run.client.capabilities.elicitation) {
      throw new ToolUsageError(`Tool "${tool.name}" called ctx.elicit('${key}'), but this client cannot ask the user anything.`)
    }
    if (run.pendingKey !== undefined) {
      throw new ToolUsageError(
        `Tool "${tool.name}" called ctx.elicit('${key}') while '${run.pendingKey}' is still waiting: one elicitation at a time per tool call. Wait for the first answer (yield* it) before asking again.`,
      )
    }
    const id: ElicitId = { toolName: tool.name, key, callId: run.callId, seq: ++run.seq }
    const { message, ...context } = options as { message: string } & Record<string, unknown>
    const request = PendingQuestion.ask(formatElicitId(id), id, message, context, spec)
    if (!(request instanceof PendingQuestion)) {
      throw new ToolUsageError(
        `Tool "${tool.name}" passed a context to ctx.elicit('${key}') that does not match its declared schema: ${describeIssues(request.issues)}`,
      )
    }
    run.pendingKey = key
    let answer
    try {
      answer = yield* run.client.elicit(request)
    } finally {
      run.pendingKey = undefined
    }
    // The client hands back only what `request.validate` accepted.
    if (answer.action !== 'accept') return { action: answer.action === 'decline' ? 'decline' : 'cancel' }
    const content: unknown = answer.content
    return { action: 'accept', content, exchange: createElicitExchange({ callId: run.callId, seq: id.seq, key, context, content }) }
  }

  *sample(request: SampleRequest): Operation<SampleResult | StructuredSampleResult<unknown>> {
    const { run } = this
    const { tool } = run
    if (!run.client.capabilities.sampling) {
      throw new ToolUsageError(`Tool "${tool.name}" called ctx.sample, but this client offers no model to sample.`)
    }
    const prompt = typeof request?.prompt === 'string' ? ({ role: 'user', content: request.prompt } as const) : undefined
    if (!prompt && !Array.isArray(request?.messages)) {
      throw new ToolUsageError(`Tool "${tool.name}" called ctx.sample without a prompt: pass { prompt } or { messages }.`)
    }
    this.budget?.ensureAvailable()
    const schema: z.ZodType | undefined = request.schema
    const result = yield* run.client.sample({
      toolName: tool.name,
      seq: ++run.seq,
      depth: this.depth,
      messages: prompt ? [...this.own, prompt] : [...request.messages!],
      system: request.system,
      maxTokens: fewest(request.maxTokens, this.budget?.remaining()),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
      schema: schema ? toJsonSchema(schema) : undefined,
    })
    this.budget?.charge((result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0))
    if (prompt) this.own.push(prompt, { role: 'assistant', content: result.text })
    if (!schema) return result
    return { ...result, value: parseStructuredOutput(schema, result.text) }
  }

  *branch<T>(fn: (ctx: BranchContext<never>) => Operation<T>, options: BranchOptions = {}): Operation<T> {
    const { run } = this
    const { inheritMessages = true, ...limits } = options
    checkLimits(`ctx.branch in tool "${run.tool.name}"`, limits)
    const depth = this.depth + 1
    const maxDepth = limits.maxDepth ?? this.maxDepth
    if (depth > maxDepth) throw new BranchDepthError(depth, maxDepth)
    const child = new Branch(run, {
      depth,
      maxDepth,
      parentMessages: [...this.own],
      messages: inheritMessages ? [...this.own] : [],
      // Without a budget of its own, a branch spends from the one around it.
      budget: limits.maxTokens === undefined ? this.budget : new TokenBudget(limits.maxTokens, depth, this.budget),
    })
    const timeout = limits.timeout ?? run.limits.timeout
    const work: Operation<T> = { [Symbol.iterator]: () => fn(child.context())[Symbol.iterator]() }
    if (timeout === undefined) return yield* work
    const deadline: Operation<never> = {
      *[Symbol.iterator]() {
        yield* sleep(timeout)
        throw new BranchTimeoutError(timeout, depth)
      },
    }
    // The loser is halted: a branch past its deadline stops, model calls in flight included.
    return yield* race([work, deadline])
  }

  *step<T>(name: string, work: () => Operation<T>): Operation<T> {
    const { run } = this
    if (typeof name !== 'string' || name.length === 0) {
      throw new ToolUsageError(`Tool "${run.tool.name}" called ctx.step without a name: pass a short name that says what the step does.`)
    }
    if (typeof work !== 'function') {
      throw new ToolUsageError(`Tool "${run.tool.name}" called ctx.step('${name}') without a function to run.`)
    }
    const what = `The result of ctx.step('${name}') in tool "${run.tool.name}"`
    const value = yield* run.client.step({ seq: ++run.seq, name, depth: this.depth }, function* () {
      return toJsonData(yield* work(), what) as T
    })
    // The same frozen JSON on a first run and on a replay.
    return toJsonData(value, what) as T
  }

  *log(level: LogLevel, message: string): Operation<void> {
    yield* this.run.client.log({ seq: ++this.run.seq, level, message })
  }

  *notify(message: string, progress?: number): Operation<void> {
    yield* this.run.client.notify({ seq: ++this.run.seq, message, progress })
  }
}

function fewest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b
  return b === undefined ? a : Math.min(a, b)
}

