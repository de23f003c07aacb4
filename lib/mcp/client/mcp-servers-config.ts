import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** One external MCP server, as `mcp.json` names it. */
export type McpServerConfig =
  | { name: string; transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { name: string; transport: 'http'; url: URL; headers: Record<string, string> }

/** What `mcp.json` holds: the servers that can be started, and the entries that cannot, with why. */
export interface McpServersConfig {
  /** The file read, absolute; undefined when there is none (no external servers). */
  path?: string
  servers: McpServerConfig[]
  invalid: Array<{ name: string; error: string }>
}

/** The file name looked for in the directory `npm start` was run from. */
export const MCP_CONFIG_FILE = 'mcp.json'

/**
 * A server's name is the prefix of its tools' names (`<server>__<tool>`), which models accept
 * only as `[A-Za-z0-9_-]`; two underscores would make the split ambiguous.
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/

const stringRecord = z.record(z.string(), z.string())
const stdioEntry = z.strictObject({
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).default([]),
  env: stringRecord.default({}),
  cwd: z.string().optional(),
  type: z.literal('stdio').optional(),
})
const httpEntry = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  headers: stringRecord.default({}),
  type: z.enum(['http', 'streamable-http']).optional(),
})
const fileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) })

/**
 * Where `mcp.json` is: `MCP_CONFIG` (relative to `cwd`), else `mcp.json` in `cwd`. Resolved
 * to an absolute path by `scripts/start.mjs` before the standalone server changes directory.
 */
export function resolveMcpConfigPath({ env, cwd }: { env: Record<string, string | undefined>; cwd: string }): string {
  const given = env.MCP_CONFIG?.trim()
  return path.resolve(cwd, given || MCP_CONFIG_FILE)
}

/**
 * Read and check `mcp.json`. A missing file is no servers (unless `MCP_CONFIG` named it: then
 * it is reported as a problem of the file). A file that is not JSON or has no `mcpServers`
 * object is one problem for the whole file; a bad entry makes only that server fail.
 */
export function readMcpServersConfig({ file, required = false }: { file: string; required?: boolean }): McpServersConfig {
  if (!existsSync(file)) {
    return required ? { path: file, servers: [], invalid: [{ name: path.basename(file), error: `${file} does not exist` }] } : { servers: [], invalid: [] }
  }
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return { path: file, servers: [], invalid: [{ name: path.basename(file), error: `${file} is not valid JSON: ${messageOf(error)}` }] }
  }
  return { path: file, ...parseMcpServers({ data, baseDirectory: path.dirname(file) }) }
}

/** The servers in an `mcp.json` document; relative `cwd`s resolve against `baseDirectory`. */
export function parseMcpServers({ data, baseDirectory }: { data: unknown; baseDirectory: string }): Omit<McpServersConfig, 'path'> {
  const file = fileSchema.safeParse(data)
  if (!file.success) return { servers: [], invalid: [{ name: MCP_CONFIG_FILE, error: 'expected an object with an "mcpServers" object' }] }
  const servers: McpServerConfig[] = []
  const invalid: McpServersConfig['invalid'] = []
  for (const [name, entry] of Object.entries(file.data.mcpServers)) {
    if (!SERVER_NAME.test(name) || name.length > 32) {
      invalid.push({ name, error: 'the name must be 1 to 32 letters, digits, hyphens or single underscores' })
      continue
    }
    const isHttp = typeof entry === 'object' && entry !== null && 'url' in entry
    const parsed = (isHttp ? httpEntry : stdioEntry).safeParse(entry)
    if (!parsed.success) {
      invalid.push({ name, error: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ') })
      continue
    }
    const value = parsed.data
    if ('url' in value) servers.push({ name, transport: 'http', url: new URL(value.url), headers: value.headers })
    else {
      servers.push({
        name,
        transport: 'stdio',
        command: value.command,
        args: value.args,
        env: value.env,
        ...(value.cwd ? { cwd: path.resolve(baseDirectory, value.cwd) } : {}),
      })
    }
  }
  return { servers, invalid }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
