import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider'
import { asSchema, type ToolSet } from 'ai'

const converted = new WeakMap<ToolSet, Promise<LanguageModelV3FunctionTool[]>>()

/**
 * A tool set as a `LanguageModelV3` takes it: name, description, JSON Schema. Converted once
 * per tool set (the engine's is made once per server), not on every model call.
 */
export function toFunctionTools(tools: ToolSet): Promise<LanguageModelV3FunctionTool[]> {
  let result = converted.get(tools)
  if (!result) {
    result = Promise.all(
      Object.entries(tools).map(async ([name, tool]) => ({
        type: 'function' as const,
        name,
        description: tool.description,
        inputSchema: await asSchema(tool.inputSchema).jsonSchema,
      })),
    )
    converted.set(tools, result)
  }
  return result
}
