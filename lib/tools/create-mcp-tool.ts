import type { Operation } from 'effection'
import { z } from 'zod'
import type { ElicitsMap } from './elicits'
import { executeHandoff, type Handoff } from './handoff'
import { checkLimits, type BranchLimits, type ToolRequirements } from './limits'
import type { McpTool, McpToolContext } from './types'

type Execute<TParams extends z.ZodType, TElicits extends ElicitsMap, TResult> = (
  params: z.output<TParams>,
  ctx: McpToolContext<TElicits>,
) => Operation<TResult>

/** A call's short title for people, from its parameters. */
type Title<TParams extends z.ZodType> = (params: z.output<TParams>) => string

/** A tool being described; it cannot execute until `.elicits()` declared its elicitations. */
export interface McpToolBuilder<TName extends string, TParams extends z.ZodType> {
  description(text: string): McpToolBuilder<TName, TParams>
  parameters<P extends z.ZodType>(schema: P): McpToolBuilder<TName, P>
  /** A call's short title for people, from its parameters (after `.parameters()`): "NYC → LAX". */
  title(fn: Title<TParams>): McpToolBuilder<TName, TParams>
  requires(requirements: Partial<ToolRequirements>): McpToolBuilder<TName, TParams>
  limits(limits: BranchLimits): McpToolBuilder<TName, TParams>
  elicits<E extends ElicitsMap>(elicits: E): McpToolBuilderWithElicits<TName, TParams, E>
}

export interface McpToolBuilderWithElicits<TName extends string, TParams extends z.ZodType, TElicits extends ElicitsMap> {
  description(text: string): McpToolBuilderWithElicits<TName, TParams, TElicits>
  parameters<P extends z.ZodType>(schema: P): McpToolBuilderWithElicits<TName, P, TElicits>
  /**
   * A call's short title for people, from its parameters (after `.parameters()`): the chat's
   * tool card shows it as its heading, e.g. `.title(({ from, destination }) => `${from} → ${destination}`)`.
   */
  title(fn: Title<TParams>): McpToolBuilderWithElicits<TName, TParams, TElicits>
  /** What the client must offer (both default to true); `runBranchTool` refuses a client without it. */
  requires(requirements: Partial<ToolRequirements>): McpToolBuilderWithElicits<TName, TParams, TElicits>
  /** The tool's limits on its branches: between the runtime's and each `ctx.branch` site's. */
  limits(limits: BranchLimits): McpToolBuilderWithElicits<TName, TParams, TElicits>
  elicits<E extends ElicitsMap>(elicits: E): McpToolBuilderWithElicits<TName, TParams, E>
  execute<TResult>(fn: Execute<TParams, TElicits, TResult>): McpTool<TName, TParams, TElicits, TResult>
  /** `before` on the server, `client` with the ctx, `after` on the server again. */
  handoff<THandoff, TClient, TResult>(
    phases: Handoff<TParams, TElicits, THandoff, TClient, TResult>,
  ): McpTool<TName, TParams, TElicits, TResult>
}

interface BuilderState {
  name: string
  description: string
  parameters: z.ZodType
  title?: (params: never) => string
  elicits: ElicitsMap | undefined
  requires: ToolRequirements
  limits: BranchLimits
}

/**
 * Describe a tool that runs on the server and may stop to ask the user (`ctx.elicit`),
 * ask the model (`ctx.sample`), think in sub-branches (`ctx.branch`) or report progress
 * (`ctx.log`, `ctx.notify`).
 *
 * @example
 * const greet = createMcpTool('greet')
 *   .description('Greets the user by a name they choose')
 *   .parameters(z.object({}))
 *   .elicits({ pickName: z.object({ name: z.string() }) })
 *   .execute(function* (_params, ctx) {
 *     const answer = yield* ctx.elicit('pickName', { message: 'Your name?' })
 *     return answer.action === 'accept' ? `Hello, ${answer.content.name}` : 'Hello'
 *   })
 */
export function createMcpTool<TName extends string>(name: TName): McpToolBuilder<TName, z.ZodObject<{}>> {
  return builder(initialState(name, undefined)) as never
}

/**
 * `createMcpTool` for tools that think before they ask: the same tool, with no elicitations
 * declared until `.elicits()` names some. Typically finished with `.handoff({...})`.
 */
export function createBranchTool<TName extends string>(name: TName): McpToolBuilderWithElicits<TName, z.ZodObject<{}>, {}> {
  return builder(initialState(name, {})) as never
}

function initialState(name: string, elicits: ElicitsMap | undefined): BuilderState {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    throw new Error(`Tool name "${name}" must be 1-64 letters, digits, "_" or "-" (model APIs require it).`)
  }
  return { name, description: '', parameters: z.object({}), elicits, requires: { elicitation: true, sampling: true }, limits: {} }
}

function builder(state: BuilderState) {
  const build = (execute: Execute<z.ZodType, ElicitsMap, unknown>, method: string): McpTool => {
    if (!state.elicits) {
      throw new Error(
        `Tool "${state.name}" must declare its elicitations with .elicits({...}) before .${method}() (use .elicits({}) for none).`,
      )
    }
    return {
      kind: 'mcp-tool',
      name: state.name,
      description: state.description,
      parameters: state.parameters,
      ...(state.title ? { title: state.title as McpTool['title'] } : {}),
      elicits: state.elicits,
      requires: state.requires,
      limits: state.limits,
      execute,
    }
  }
  return {
    description: (text: string) => builder({ ...state, description: text }),
    parameters: (schema: z.ZodType) => builder({ ...state, parameters: schema }),
    title: (fn: (params: never) => string) => builder({ ...state, title: fn }),
    requires: (requirements: Partial<ToolRequirements>) => builder({ ...state, requires: { ...state.requires, ...requirements } }),
    limits: (limits: BranchLimits) => builder({ ...state, limits: { ...state.limits, ...checkLimits(state.name, limits) } }),
    elicits: (elicits: ElicitsMap) => builder({ ...state, elicits }),
    execute: (fn: Execute<z.ZodType, ElicitsMap, unknown>) => build(fn, 'execute'),
    handoff: (phases: Handoff<z.ZodType, ElicitsMap, unknown, unknown, unknown>) =>
      build(executeHandoff(state.name, phases), 'handoff'),
  }
}
