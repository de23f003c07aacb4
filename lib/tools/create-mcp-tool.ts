import type { Operation } from 'effection'
import { z } from 'zod'
import type { ElicitsMap } from './elicits'
import type { McpTool, McpToolContext } from './types'

type Execute<TParams extends z.ZodType, TElicits extends ElicitsMap, TResult> = (
  params: z.output<TParams>,
  ctx: McpToolContext<TElicits>,
) => Operation<TResult>

/** A tool being described; it cannot execute until `.elicits()` declared its elicitations. */
export interface McpToolBuilder<TName extends string, TParams extends z.ZodType> {
  description(text: string): McpToolBuilder<TName, TParams>
  parameters<P extends z.ZodType>(schema: P): McpToolBuilder<TName, P>
  elicits<E extends ElicitsMap>(elicits: E): McpToolBuilderWithElicits<TName, TParams, E>
}

export interface McpToolBuilderWithElicits<TName extends string, TParams extends z.ZodType, TElicits extends ElicitsMap> {
  description(text: string): McpToolBuilderWithElicits<TName, TParams, TElicits>
  parameters<P extends z.ZodType>(schema: P): McpToolBuilderWithElicits<TName, P, TElicits>
  execute<TResult>(fn: Execute<TParams, TElicits, TResult>): McpTool<TName, TParams, TElicits, TResult>
}

interface BuilderState {
  name: string
  description: string
  parameters: z.ZodType
  elicits: ElicitsMap | undefined
}

/**
 * Describe a tool that runs on the server and may stop to ask the user (`ctx.elicit`),
 * ask the model (`ctx.sample`) or report progress (`ctx.log`, `ctx.notify`).
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
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    throw new Error(`Tool name "${name}" must be 1-64 letters, digits, "_" or "-" (model APIs require it).`)
  }
  return builder({ name, description: '', parameters: z.object({}), elicits: undefined }) as never
}

function builder(state: BuilderState) {
  return {
    description: (text: string) => builder({ ...state, description: text }),
    parameters: (schema: z.ZodType) => builder({ ...state, parameters: schema }),
    elicits: (elicits: ElicitsMap) => builder({ ...state, elicits }),
    execute(fn: Execute<z.ZodType, ElicitsMap, unknown>): McpTool {
      if (!state.elicits) {
        throw new Error(
          `Tool "${state.name}" must declare its elicitations with .elicits({...}) before .execute() (use .elicits({}) for none).`,
        )
      }
      return {
        kind: 'mcp-tool',
        name: state.name,
        description: state.description,
        parameters: state.parameters,
        elicits: state.elicits,
        execute: fn,
      }
    },
  }
}
