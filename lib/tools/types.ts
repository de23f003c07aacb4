import type { Operation } from 'effection'
import type { z } from 'zod'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { ElicitId } from '../protocol/elicit-id'
import type { LogLevel } from '../protocol/events'
import type { ElicitOptions, ElicitsMap, ResponseOf } from './elicits'
import type { BranchLimits, ToolRequirements } from './limits'
import type { AssistantToolCallMessage, ExtendedMessage, ToolResultMessage } from './sample-messages'

export type { ElicitAnswer, ElicitId }

/**
 * An accepted elicitation as a request/response message pair, for tools that keep a
 * conversation of their own (e.g. to sample the model with the game so far).
 */
// TResponse names the answer's type for readers and future fields; the pair carries it as JSON.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface ElicitExchange<TContext, TResponse> {
  /** Exactly what the tool passed to `ctx.elicit`, besides the message. */
  readonly context: TContext
  /** An assistant message with one tool call: id `elicit_${callId}_${seq}`, name the key, no arguments. */
  readonly request: AssistantToolCallMessage
  /** The tool result message: the answer as JSON. */
  readonly response: ToolResultMessage
  /** `[request, response]`; the arguments are empty, so no context leaks into a prompt by default. */
  readonly messages: [AssistantToolCallMessage, ToolResultMessage]
  /** `[request, response]` with arguments chosen from the context. */
  withArguments(fn: (context: TContext) => Record<string, unknown>): [AssistantToolCallMessage, ToolResultMessage]
}

/** What `ctx.elicit` resumes with. Only an accept carries content and an exchange. */
export type ElicitResult<TContext, TResponse> =
  | { action: 'accept'; content: TResponse; exchange: ElicitExchange<TContext, TResponse> }
  | { action: 'decline' }
  | { action: 'cancel' }


interface SampleOptions {
  /** A system prompt for this call (the chat's own is in `ctx.parentSystemPrompt`). */
  system?: string
  /** At most this many output tokens. */
  maxTokens?: number
  /** Sampling temperature, for models that take one. */
  temperature?: number
  /** The model stops before any of these. */
  stopSequences?: string[]
}

/**
 * A question for the model: a `prompt` (appended to the branch's `ctx.messages`, with the
 * answer) or explicit `messages` (which leave `ctx.messages` alone). With a Zod `schema`, the
 * model is asked for JSON and the result carries the parsed, validated `value`.
 */
export type SampleRequest<TSchema extends z.ZodType | undefined = z.ZodType | undefined> = (
  | { prompt: string; messages?: never }
  | { messages: ExtendedMessage[]; prompt?: never }
) &
  SampleOptions & { schema?: TSchema }

export interface SampleResult {
  text: string
  usage?: { inputTokens?: number; outputTokens?: number }
}

export interface StructuredSampleResult<T> extends SampleResult {
  /** The model's JSON answer, parsed by the request's schema. */
  value: T
}

/** How a sub-branch is run by `ctx.branch`. */
export interface BranchOptions extends BranchLimits {
  /** Start the branch with a copy of this branch's `messages` (default true). */
  inheritMessages?: boolean
}

/**
 * What a tool's `execute` (or a handoff's `client`) receives besides its parameters, and what
 * each `ctx.branch` receives: the tool's capabilities in one branch of its work.
 */
export interface BranchContext<TElicits extends ElicitsMap> {
  readonly toolName: string
  /** The model's tool_call.id; also the plugin session id. */
  readonly callId: string
  /** The conversation this branch was started from: in the chat, the messages so far. */
  readonly parentMessages: readonly ExtendedMessage[]
  /** The system prompt of the conversation this tool was called in. */
  readonly parentSystemPrompt: string | undefined
  /** This branch's own conversation, extended by each `sample({ prompt })`. */
  readonly messages: readonly ExtendedMessage[]
  /** 0 for the tool itself, 1 for its branches, and so on. */
  readonly depth: number
  /** Ask the user through the plugin's UI; resumes with their validated answer. Only at depth 0. */
  elicit<K extends keyof TElicits & string, O extends ElicitOptions<TElicits[K]>>(
    key: K,
    options: O,
  ): Operation<ElicitResult<Omit<O, 'message'>, ResponseOf<TElicits[K]>>>
  /** Ask the model, on the server (in the chat: the chat's own model). */
  sample<S extends z.ZodType>(request: SampleRequest<S> & { schema: S }): Operation<StructuredSampleResult<z.output<S>>>
  sample(request: SampleRequest<undefined>): Operation<SampleResult>
  /** Run `fn` as a sub-branch with its own messages and limits; it reduces to its return value. */
  branch<T>(fn: (ctx: BranchContext<TElicits>) => Operation<T>, options?: BranchOptions): Operation<T>
  /**
   * Do something that would differ on a second run (an id, a random choice, the clock, a call
   * to an outside service) once, and keep its JSON result: a session replayed on another
   * process gets the recorded result back instead of running `work` again.
   *
   * @example
   * const ticket = yield* ctx.step('ticket number', function* () { return createTicketNumber() })
   */
  step<T>(name: string, work: () => Operation<T>): Operation<T>
  log(level: LogLevel, message: string): Operation<void>
  /** Report progress (0..1) to the chat UI. */
  notify(message: string, progress?: number): Operation<void>
}

/** The context of a tool: its root branch. */
export type McpToolContext<TElicits extends ElicitsMap> = BranchContext<TElicits>

export interface McpTool<
  TName extends string = string,
  TParams extends z.ZodType = z.ZodType,
  TElicits extends ElicitsMap = ElicitsMap,
  TResult = unknown,
> {
  readonly kind: 'mcp-tool'
  readonly name: TName
  readonly description: string
  readonly parameters: TParams
  /** A call's short title for people, from its parameters ("NYC → LAX"); the chat's tool card shows it. */
  title?(params: z.output<TParams>): string
  readonly elicits: TElicits
  /** What the client must offer; checked before the tool runs. */
  readonly requires: ToolRequirements
  /** The tool's own limits, between the runtime's and each branch site's. */
  readonly limits: BranchLimits
  /**
   * Set for a tool whose calls cannot be replayed from their journal once their outside work
   * began (an external MCP server's: calling it again would redo its side effects). Such a tool
   * marks that start with the `ctx.step` named `startedBy`, and before it only asks questions
   * and takes steps that reach nothing outside (a look at its connection). Until then its
   * session is data like any other (a question waiting for the person survives a restart); from
   * then on it lives only in the process that started it, and a request that reaches it anywhere
   * else, or after a restart, learns it was lost.
   */
  readonly liveOnly?: { readonly startedBy: string }
  execute(params: z.output<TParams>, ctx: McpToolContext<TElicits>): Operation<TResult>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMcpTool = McpTool<string, z.ZodType, any, unknown>
