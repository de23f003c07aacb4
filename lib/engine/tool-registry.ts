import { jsonSchema, tool as defineModelTool, type Tool as ModelTool, type ToolSet } from 'ai'
import type { ExternalToolOrigin } from '../protocol/events'
import { toJsonSchema } from '../runtime/json-schema'
import type { ExternalTool, ExternalToolSource } from '../tools/external-tools'
import type { AnyMcpTool } from '../tools/types'

/** Every tool the chat can use, as `GET /api/tools` lists them. */
export interface ToolDescription {
  name: string
  description: string
  /** `plugin` for the app's own tools; `mcp:<server>` for an external server's. */
  source: string
  /** Only its MCP App may call it: not offered to the model, not a slash command. Absent otherwise. */
  appOnly?: true
}

/** Whether the model or a slash command may start a tool of this name now. */
export type ToolAvailability = 'available' | 'app-only' | 'unknown'

export interface ToolRegistry {
  /** Any tool by name, app-only ones too (a session already running still needs its tool). */
  get(name: string, person?: string): AnyMcpTool | undefined
  /** Whether the model or a person may start it: an app-only tool is for its app alone. */
  availabilityOf(name: string, person?: string): ToolAvailability
  /** Where an external tool comes from; undefined for the app's own. */
  originOf(name: string, person?: string): ExternalToolOrigin | undefined
  /**
   * The tools as the model sees them now: name, description, JSON Schema; executed by the engine.
   * `person`: whose turn it is (the client id), whose own servers' tools are offered too.
   */
  forModel(person?: string): ToolSet
  describe(person?: string): ToolDescription[]
}

export const PLUGIN_TOOL_SOURCE = 'plugin'

export function createToolRegistry(tools: readonly AnyMcpTool[], external?: ExternalToolSource): ToolRegistry {
  const byName = new Map<string, AnyMcpTool>()
  const own: ToolSet = {}
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`)
    byName.set(tool.name, tool)
    own[tool.name] = defineModelTool({
      description: tool.description,
      inputSchema: jsonSchema(toJsonSchema(tool.parameters) as Parameters<typeof jsonSchema>[0]),
    })
  }
  // An external tool's model definition is made once per tool object (a server's new list makes new ones).
  const definitions = new WeakMap<ExternalTool, ModelTool>()
  const definitionOf = (entry: ExternalTool) => {
    let definition = definitions.get(entry)
    if (!definition) {
      definition = defineModelTool({ description: entry.description, inputSchema: jsonSchema(entry.inputSchema as Parameters<typeof jsonSchema>[0]) })
      definitions.set(entry, definition)
    }
    return definition
  }
  let last: { offered: readonly ExternalTool[]; set: ToolSet } = { offered: [], set: own }
  return {
    // The app's own tools first: an external server cannot take over a plugin's name.
    get: (name, person) => byName.get(name) ?? external?.get(name, person)?.tool,
    originOf: (name, person) => (byName.has(name) ? undefined : external?.get(name, person)?.origin),
    availabilityOf(name, person) {
      if (byName.has(name)) return 'available'
      const entry = external?.get(name, person)
      return !entry ? 'unknown' : entry.appOnly ? 'app-only' : 'available'
    },
    forModel(person) {
      const offered = external?.list(person).filter((entry) => !byName.has(entry.tool.name) && !entry.appOnly) ?? []
      if (offered.length === 0) return own
      // The same set while the servers offer the same tools: the model layer converts each set once.
      if (offered.length !== last.offered.length || offered.some((entry, index) => entry !== last.offered[index])) {
        last = { offered, set: { ...own, ...Object.fromEntries(offered.map((entry) => [entry.tool.name, definitionOf(entry)])) } }
      }
      return last.set
    },
    describe: (person) => [
      ...tools.map((tool) => ({ name: tool.name, description: tool.description, source: PLUGIN_TOOL_SOURCE })),
      ...(external?.list(person) ?? [])
        .filter((entry) => !byName.has(entry.tool.name))
        .map((entry) => ({ name: entry.tool.name, description: entry.description, source: entry.source, ...(entry.appOnly ? { appOnly: true as const } : {}) })),
    ],
  }
}
