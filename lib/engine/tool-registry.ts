import { jsonSchema, tool as defineModelTool, type ToolSet } from 'ai'
import { toJsonSchema } from '../runtime/json-schema'
import type { AnyMcpTool } from '../tools/types'

export interface ToolRegistry {
  get(name: string): AnyMcpTool | undefined
  /** The tools as the model sees them: name, description, JSON Schema; executed by the engine. */
  forModel: ToolSet
}

export function createToolRegistry(tools: readonly AnyMcpTool[]): ToolRegistry {
  const byName = new Map<string, AnyMcpTool>()
  const forModel: ToolSet = {}
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`)
    byName.set(tool.name, tool)
    forModel[tool.name] = defineModelTool({
      description: tool.description,
      inputSchema: jsonSchema(toJsonSchema(tool.parameters) as Parameters<typeof jsonSchema>[0]),
    })
  }
  return { get: (name) => byName.get(name), forModel }
}
