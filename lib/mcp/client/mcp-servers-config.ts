import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { peopleListOf, type PeopleList } from '../../http'
import { APPROVAL_POLICIES, type ApprovalPolicy } from './approval-policy'

/**
 * One external MCP server, as `mcp.json` names it. `initializeTimeoutMs`, when the entry sets
 * it, replaces the app's (`MCP_INITIALIZE_TIMEOUT_MS`) for this server; `approve`, when it
 * sets it, which of its tools the person approves before each call (default `write`); `users`,
 * when it sets it, who may use the server's tools once sign-in is configured (`tool-audience.ts`).
 */
export type McpServerConfig = (
  | { name: string; transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | ({ name: string; transport: 'http'; url: URL; headers: Record<string, string> } & PersonalAccess)
  | ({ name: string; transport: 'sse'; url: URL; headers: Record<string, string> } & PersonalAccess)
) & { initializeTimeoutMs?: number; approve?: ApprovalPolicy; users?: PeopleList }

/**
 * What a `url` entry may say about each person's own access to it: the OAuth client the chat is
 * at the server's authorization server, when it was registered there by hand (`oauth`), and the
 * values each person enters once, used in `headers` as `${NAME}` (`userVariables`).
 */
export interface PersonalAccess {
  oauth?: { clientId: string; clientSecret?: string; scope?: string }
  userVariables?: Record<string, { title: string; description?: string }>
}

/** What `mcp.json` holds: the servers that can be started, the entries that cannot (with why), and those turned off. */
export interface McpServersConfig {
  /** The file read, absolute; undefined when there is none (no external servers). */
  path?: string
  servers: McpServerConfig[]
  /** Each error names the file it comes from. */
  invalid: Array<{ name: string; error: string }>
  /** Entries with `"disabled": true`: listed, not started. */
  disabled?: string[]
}

/** The file name looked for in the directory `npm start` was run from. */
export const MCP_CONFIG_FILE = 'mcp.json'

/**
 * A server's name is the prefix of its tools' names (`<server>__<tool>`), which models accept
 * only as `[A-Za-z0-9_-]`; two underscores would make the split ambiguous.
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/

const NO_INPUTS = 'inputs are not supported: put the value in env or headers'

const stringRecord = z.record(z.string(), z.string())
const common = {
  initializeTimeoutMs: z.int().positive('initializeTimeoutMs must be a positive whole number of milliseconds').optional(),
  disabled: z.boolean().optional(),
  approve: z.enum(APPROVAL_POLICIES, 'approve must be "write" (ask before tools not marked read-only; the default), "always" (ask before every tool) or "never"').optional(),
  users: z
    .array(z.string(), 'users must be a list of addresses ("alice@example.com"), domains ("@example.com") and groups ("group:eng")')
    .transform((entries, context) => {
      try {
        return peopleListOf(entries)
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    })
    .optional(),
}
const stdioEntry = z.strictObject({
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).default([]),
  env: stringRecord.default({}),
  cwd: z.string().optional(),
  type: z.literal('stdio').optional(),
  ...common,
})
/** A user variable's name, as `${NAME}` in `headers`: what shells and `.env` files call a variable. */
const VARIABLE_NAME = /^[A-Z][A-Z0-9_]{0,63}$/
const oauthEntry = z.strictObject({
  clientId: z.string().min(1, 'must not be empty'),
  clientSecret: z.string().min(1, 'must not be empty').optional(),
  scope: z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'must be scope names separated by single spaces').optional(),
})
const userVariable = z.strictObject({ title: z.string().min(1).max(200), description: z.string().max(1000).optional() })
const userVariables = z
  .record(z.string(), userVariable)
  .refine((variables) => Object.keys(variables).every((name) => VARIABLE_NAME.test(name)), 'each user variable is named in capitals, digits and underscores (LINEAR_KEY)')
  .refine((variables) => Object.keys(variables).length <= 16, 'at most 16 userVariables')
const urlEntry = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  headers: stringRecord.default({}),
  oauth: oauthEntry.optional(),
  userVariables: userVariables.optional(),
  // `sse` is the 2024-11-05 HTTP+SSE transport; the others are Streamable HTTP.
  type: z.enum(['http', 'streamable-http', 'sse'], 'type must be "stdio", "http" or "sse"').optional(),
  ...common,
})

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
 * it is reported as a problem of the file). A file that is not JSON or has no servers object
 * is one problem for the whole file; a bad entry makes only that server fail.
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
  return { path: file, ...parseMcpServers({ data, file }) }
}

/**
 * The servers in an `mcp.json` document read from `file` (named in every error; relative
 * `cwd`s resolve against its directory). Two formats: Claude Desktop's and Cursor's
 * `{ "mcpServers": { … } }`, and VS Code's `{ "servers": { … }, "inputs": [ … ] }`, whose
 * entries say `"type": "stdio" | "http" | "sse"`; VS Code's `inputs` (values it prompts for)
 * are refused, since nobody is there to answer when the app starts.
 */
export function parseMcpServers({ data, file }: { data: unknown; file: string }): Omit<McpServersConfig, 'path'> {
  const whole = (error: string) => ({ servers: [], invalid: [{ name: path.basename(file), error: `${file}: ${error}` }], disabled: [] })
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return whole('expected a JSON object')
  const document = data as Record<string, unknown>
  if ('mcpServers' in document && 'servers' in document) {
    return whole('has both "mcpServers" (Claude Desktop, Cursor) and "servers" (VS Code); keep one of them')
  }
  const entries = document.mcpServers ?? document.servers
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    return whole('expected an object with an "mcpServers" object (Claude Desktop, Cursor) or a "servers" object (VS Code)')
  }
  const servers: McpServerConfig[] = []
  const invalid: McpServersConfig['invalid'] = []
  const disabled: string[] = []
  if (Array.isArray(document.inputs) ? document.inputs.length > 0 : document.inputs !== undefined) {
    invalid.push({ name: 'inputs', error: `${file}: ${NO_INPUTS}` })
  }
  const fail = (name: string, error: string) => invalid.push({ name, error: `${file}: ${error}` })
  for (const [name, entry] of Object.entries(entries)) {
    if (!SERVER_NAME.test(name) || name.length > 32) {
      fail(name, 'the name must be 1 to 32 letters, digits, hyphens or single underscores')
      continue
    }
    const isObject = typeof entry === 'object' && entry !== null
    // Turned off: not started, and not checked either (one may disable an entry to mend it later).
    if (isObject && (entry as { disabled?: unknown }).disabled === true) {
      disabled.push(name)
      continue
    }
    const input = JSON.stringify(entry ?? null).match(/\$\{input:[^}]*\}/)
    if (input) {
      fail(name, `it uses ${input[0]}; ${NO_INPUTS}`)
      continue
    }
    const isUrl = isObject && ('url' in entry || ['http', 'sse', 'streamable-http'].includes(String((entry as { type?: unknown }).type)))
    const parsed = (isUrl ? urlEntry : stdioEntry).safeParse(entry)
    if (!parsed.success) {
      fail(name, parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; '))
      continue
    }
    const value = parsed.data
    const unknownVariable = 'url' in value ? undeclaredVariable(value.headers, value.userVariables ?? {}) : undefined
    if (unknownVariable) {
      fail(name, `headers use \${${unknownVariable}}, which userVariables does not declare`)
      continue
    }
    const options = {
      ...(value.initializeTimeoutMs !== undefined ? { initializeTimeoutMs: value.initializeTimeoutMs } : {}),
      ...(value.approve !== undefined ? { approve: value.approve } : {}),
      ...(value.users !== undefined ? { users: value.users } : {}),
    }
    if ('url' in value) {
      const personal = {
        ...(value.oauth ? { oauth: value.oauth } : {}),
        ...(value.userVariables && Object.keys(value.userVariables).length > 0 ? { userVariables: value.userVariables } : {}),
      }
      const url = { name, url: new URL(value.url), headers: value.headers, ...personal, ...options }
      servers.push(value.type === 'sse' ? { ...url, transport: 'sse' } : { ...url, transport: 'http' })
    } else {
      servers.push({
        name,
        transport: 'stdio',
        command: value.command,
        args: value.args,
        env: value.env,
        ...(value.cwd ? { cwd: path.resolve(path.dirname(file), value.cwd) } : {}),
        ...options,
      })
    }
  }
  return { servers, invalid, disabled }
}

/** The first `${NAME}` in `headers` that `declared` does not name. */
function undeclaredVariable(headers: Record<string, string>, declared: Record<string, unknown>): string | undefined {
  for (const value of Object.values(headers)) {
    for (const [, variable] of value.matchAll(/\$\{([^}]*)\}/g)) if (!Object.hasOwn(declared, variable!)) return variable
  }
  return undefined
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
