import type { Operation } from 'effection'
import type { z } from 'zod'
import type { LogLevel } from '../engine/events'
import type { ElicitOptions, ElicitsMap, ResponseOf } from './elicits'

/** How the user answered an elicitation. */
export type ElicitResult<TResponse> =
  | { action: 'accept'; content: TResponse }
  | { action: 'decline' }
  | { action: 'cancel' }

/** The structured identity of one elicitation; `seq` counts the tool's ctx calls from 1. */
export interface ElicitId {
  toolName: string
  key: string
  callId: string
  seq: number
}

export interface SampleMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export type SampleRequest = (
  | { prompt: string; messages?: never }
  | { messages: SampleMessage[]; prompt?: never }
) & {
  system?: string
  maxTokens?: number
}

export interface SampleResult {
  text: string
  usage?: { inputTokens?: number; outputTokens?: number }
}

/** What a tool's `execute` receives besides its parameters. */
export interface McpToolContext<TElicits extends ElicitsMap> {
  readonly toolName: string
  /** The model's tool_call.id; also the plugin session id. */
  readonly callId: string
  /** Ask the user through the plugin's UI; resumes with their validated answer. */
  elicit<K extends keyof TElicits & string>(
    key: K,
    options: ElicitOptions<TElicits[K]>,
  ): Operation<ElicitResult<ResponseOf<TElicits[K]>>>
  /** Ask the chat's own model, on the server. */
  sample(request: SampleRequest): Operation<SampleResult>
  log(level: LogLevel, message: string): Operation<void>
  /** Report progress (0..1) to the chat UI. */
  notify(message: string, progress?: number): Operation<void>
}

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
  readonly elicits: TElicits
  execute(params: z.output<TParams>, ctx: McpToolContext<TElicits>): Operation<TResult>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMcpTool = McpTool<string, z.ZodType, any, unknown>
