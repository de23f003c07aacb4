import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client'
import type { Operation } from 'effection'
import { z } from 'zod'
import type { ExternalTool } from '../../tools/external-tools'
import type { AnyMcpTool } from '../../tools/types'
import { visibleToModel } from '../tool-visibility'
import { approveCall } from './approve-call'
import { DEFAULT_APPROVAL_POLICY } from './approval-policy'
import { encodeCallToolResult, ExternalResultError } from './call-result'
import { EXTERNAL_QUESTION, type UrlQuestion } from './external-questions'
import { externalQuestions, type ExternalToolContext } from './question-specs'
import { callOnce, connectionFor, type ExternalCall, type Settled } from './server-call'
import { connectFirst } from './personal/connect-first'
import type { McpClients } from './use-mcp-clients'

export { externalQuestions }

/** How long one external call may take at most, waits for the user included (default 30 minutes). */
export const DEFAULT_EXTERNAL_CALL_TIMEOUT_MS = 30 * 60_000

const json = z.record(z.string(), z.unknown())

/**
 * A server's tool as a tool of the chat (`<server>__<tool>`): called through the server's one
 * connection, it runs as a tool session like any other, so Stop, expiry, ownership and the
 * questions work unchanged. A call the person must approve first asks them in its card
 * (`approveCall`). The server's questions become the person's forms, its sampling requests a
 * question to approve and then the chat's model, its progress and logs the card's.
 *
 * It is live-only once it reaches the server: its session is then never replayed, since that
 * would call the server again. Before, it is data like any other tool's (an approval waiting for
 * the person survives a reload and a restart), because the call to the server is always made
 * after a journaled step that marks its start (`CALL_STARTED`), and nothing reaches the server
 * before that step (see `replayable` in the session manager).
 */
export function createExternalTool({
  name,
  server,
  tool,
  clients,
  callTimeoutMs = DEFAULT_EXTERNAL_CALL_TIMEOUT_MS,
  person,
}: {
  name: string
  server: string
  tool: Tool
  clients: McpClients
  callTimeoutMs?: number
  /** For a tool of a person's own connection: whose (their calls go through it alone). */
  person?: string
}): ExternalTool {
  const mcpTool: AnyMcpTool = {
    kind: 'mcp-tool',
    name,
    description: tool.description ?? tool.title ?? '',
    parameters: json,
    elicits: externalQuestions,
    requires: { elicitation: false, sampling: false },
    limits: {},
    liveOnly: { startedBy: CALL_STARTED },
    execute: (params: Record<string, unknown>, ctx: ExternalToolContext) => callExternalTool({ name, listed: tool, call: { server, tool: tool.name, params, ctx, clients, callTimeoutMs, ...(person !== undefined ? { person } : {}) } }),
  }
  const uiResourceUri = uiResourceUriOf(tool)
  return {
    tool: mcpTool,
    description: mcpTool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    source: `mcp:${server}`,
    origin: { server, tool: tool.name, ...(uiResourceUri ? { uiResourceUri } : {}) },
    ...(visibleToModel(tool) ? {} : { appOnly: true }),
  }
}

/** `_meta.ui.resourceUri` (MCP Apps), or the older flat `_meta["ui/resourceUri"]`. */
export function uiResourceUriOf(tool: Tool): string | undefined {
  const meta = tool._meta as Record<string, unknown> | undefined
  const ui = meta?.ui as Record<string, unknown> | undefined
  const uri = ui?.resourceUri ?? meta?.['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined
}

/** How many times a call answered -32042 (URL elicitation required) is asked about and made again, at most. */
export const MAX_URL_ELICITATION_ROUNDS = 3

/**
 * The journaled step after which a call reaches its server. A session whose journal holds it
 * is never replayed; one without it has done nothing outside and may be.
 */
const CALL_STARTED = 'call the server'

function* callExternalTool({ name, listed, call }: { name: string; listed: Tool; call: ExternalCall }): Operation<string> {
  const { server, tool, ctx, clients } = call
  // A server each person connects to: this person's own connection first, or "Connect X to go on".
  if (call.person !== undefined) {
    const declined = yield* connectFirst({ server, tool, person: call.person, clients, ctx })
    if (declined) return resultOf(declined)
  }
  const approval = yield* approveCall({ server, chatName: name, tool: listed, params: call.params, policy: connectionFor(call)?.approve ?? DEFAULT_APPROVAL_POLICY, ctx })
  if (!approval.approved) return resultOf(approval.result)
  const note = { allowedForThisChat: approval.forThisChat }
  for (let round = 0; ; round++) {
    // Before its work the step writes what the tool received (the approval, a compare-and-set:
    // of two deliveries of one approval only one gets past here); from here on the session is
    // live-only, since any question it asks now is written with this step in its journal.
    yield* ctx.step(CALL_STARTED, function* () {
      return round + 1
    })
    const outcome = yield* callOnce(call)
    // -32042: the server needs the person to open links first; each becomes a URL question, then the call is made again.
    const elicitations = urlElicitationsRequired(server, outcome)
    if (!elicitations) return resultOf(settled(outcome), note)
    if (round === MAX_URL_ELICITATION_ROUNDS) {
      throw new Error(
        `${server} still asks for links to be opened (-32042, URL elicitation required) after ${MAX_URL_ELICITATION_ROUNDS} rounds of them; the call was given up.`,
      )
    }
    for (const elicitation of elicitations) {
      const question: UrlQuestion = { server, url: elicitation.url }
      const answer = yield* ctx.elicit(EXTERNAL_QUESTION.url, { message: elicitation.message, ...question })
      if (answer.action !== 'accept') return resultOf(declined(server, tool, elicitation.url, answer.action), note)
    }
  }
}

/** The call's result, or its failure said for people. */
function settled(outcome: Settled): CallToolResult {
  if (outcome.ok) return outcome.result
  const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error)
  throw new Error(`The MCP server's answer could not be used: ${message.slice(0, 500)}`)
}

const urlElicitationRequiredData = z.object({
  elicitations: z
    .array(
      z.object({
        mode: z.literal('url'),
        elicitationId: z.string().min(1),
        url: z.string().refine(isWebUrl, 'not an http(s) URL'),
        message: z.string(),
      }),
    )
    .min(1)
    .max(10),
})

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * The links a call answered with -32042 (URL elicitation required) asks the person to open, or
 * undefined for any other outcome. Data the chat cannot use is a clear error, never a crash.
 */
function urlElicitationsRequired(server: string, outcome: Settled): z.infer<typeof urlElicitationRequiredData>['elicitations'] | undefined {
  if (outcome.ok || !(outcome.error instanceof ProtocolError) || outcome.error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined
  const parsed = urlElicitationRequiredData.safeParse(outcome.error.data)
  if (parsed.success) return parsed.data.elicitations
  const why = parsed.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ')
  throw new Error(
    `${server} asked for links to be opened (-32042, URL elicitation required), but its data.elicitations cannot be shown: ${why.slice(0, 500)}. Only url-mode elicitations with http(s) URLs can be.`,
  )
}

/** What the tool says when the person declines (or cancels) a link a -32042 asked for: the call was not made again. */
function declined(server: string, tool: string, url: string, action: 'decline' | 'cancel'): CallToolResult {
  const verb = action === 'decline' ? 'declined' : 'cancelled'
  return {
    content: [{ type: 'text', text: `The person ${verb} opening ${url}, which ${server} needs before ${tool} can run; ${tool} was not called again.` }],
    isError: true,
  }
}

function resultOf(result: CallToolResult, note: { allowedForThisChat?: boolean } = {}): string {
  try {
    return encodeCallToolResult(result, note)
  } catch (error) {
    if (error instanceof ExternalResultError) throw new Error(error.message)
    throw error
  }
}
