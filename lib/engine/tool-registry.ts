import { jsonSchema, tool as defineModelTool, type Tool as ModelTool, type ToolSet } from 'ai'
import type { Person } from '../http/people-list'
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

/**
 * Whether the model or a slash command may start a tool of this name now, for the person asking:
 * `not-allowed` is an external server's tool that is not theirs (`ExternalToolAudience`).
 */
export type ToolAvailability = 'available' | 'app-only' | 'not-allowed' | 'unknown'

/**
 * Who may see and use an external server's tools (lib/mcp's `ToolAudience` is one: mcp.json's
 * `users`, admins, stdio servers for admins). Declared here, not imported: the engine never
 * imports lib/mcp. Without it every tool is everyone's.
 */
export interface ExternalToolAudience {
  admits(server: string, person: Person | undefined): boolean
}

/**
 * Who is asking for tools: `clientId`, whose own connected servers' tools are theirs too (a
 * server each person connects to, lib/mcp/client/personal), and `person`, the signed-in one
 * (`ClientIdentity.person`, undefined without sign-in) whom mcp.json's `users` admit or not.
 */
export interface ToolAsker {
  clientId?: string
  person?: Person
}

/**
 * The tools, for the one asking. An external server's tools that are not theirs are not listed,
 * not offered to the model, and not available to start.
 */
export interface ToolRegistry {
  /** Any tool by name, app-only ones too (a session already running still needs its tool). */
  /** `clientId`: whose session it is (their own servers' tools are theirs). */
  get(name: string, clientId?: string): AnyMcpTool | undefined
  /** Whether the model or a person may start it: an app-only tool is for its app alone, another's server's tool for them. */
  availabilityOf(name: string, asker?: ToolAsker): ToolAvailability
  /** Where an external tool comes from; undefined for the app's own. */
  originOf(name: string, clientId?: string): ExternalToolOrigin | undefined
  /** The tools as the model sees them now for the one asking: name, description, JSON Schema; executed by the engine. */
  forModel(asker?: ToolAsker): ToolSet
  describe(asker?: ToolAsker): ToolDescription[]
}

export const PLUGIN_TOOL_SOURCE = 'plugin'

export function createToolRegistry(tools: readonly AnyMcpTool[], external?: ExternalToolSource, audience?: ExternalToolAudience): ToolRegistry {
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
  const admits = (entry: ExternalTool, person: Person | undefined) => !audience || audience.admits(entry.origin.server, person)
  /** The external tools the person may see now, the app's own names left to the app. */
  const listedFor = ({ clientId, person }: ToolAsker = {}) => external?.list(clientId).filter((entry) => !byName.has(entry.tool.name) && admits(entry, person)) ?? []
  return {
    // The app's own tools first: an external server cannot take over a plugin's name.
    get: (name, clientId) => byName.get(name) ?? external?.get(name, clientId)?.tool,
    originOf: (name, clientId) => (byName.has(name) ? undefined : external?.get(name, clientId)?.origin),
    availabilityOf(name, asker = {}) {
      if (byName.has(name)) return 'available'
      const entry = external?.get(name, asker.clientId)
      return !entry ? 'unknown' : !admits(entry, asker.person) ? 'not-allowed' : entry.appOnly ? 'app-only' : 'available'
    },
    forModel(asker) {
      const offered = listedFor(asker).filter((entry) => !entry.appOnly)
      if (offered.length === 0) return own
      // The same set while the servers offer the same tools: the model layer converts each set once.
      if (offered.length !== last.offered.length || offered.some((entry, index) => entry !== last.offered[index])) {
        last = { offered, set: { ...own, ...Object.fromEntries(offered.map((entry) => [entry.tool.name, definitionOf(entry)])) } }
      }
      return last.set
    },
    describe: (asker) => [
      ...tools.map((tool) => ({ name: tool.name, description: tool.description, source: PLUGIN_TOOL_SOURCE })),
      ...listedFor(asker).map((entry) => ({ name: entry.tool.name, description: entry.description, source: entry.source, ...(entry.appOnly ? { appOnly: true as const } : {}) })),
    ],
  }
}
