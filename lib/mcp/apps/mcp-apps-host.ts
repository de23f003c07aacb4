import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import type { Person } from '../../http'
import { EVERYONE, type ToolAudience } from '../client/tool-audience'
import type { AppResourceSource } from './app-resource-source'
import { createAppFramePolicy, type AppCsp } from './app-frame-policy'
import { createAppTicketCodec, type AppTicketCodec } from './app-frame-ticket'
import { McpAppError, isMcpAppError } from './mcp-app-error'
import { readAppResource } from './read-app-resource'
import { visibleToApps } from '../tool-visibility'

/** Where the frame route answers; the ticket follows. */
export const APP_FRAME_PATH = '/api/mcp-apps/frame/'
const DEFAULT_TOOL_TIMEOUT_MS = 60_000

/** What the chat page needs to show one app. */
export interface OpenedApp {
  uri: string
  /** The iframe's `src`: same server, but the document's own CSP makes its origin opaque. */
  src: string
  /** For `POST /api/mcp-apps/tool-call`; stays in the chat page. */
  bridgeTicket: string
  /** The policy the frame runs under, as the app declared it (told to the app in `ui/initialize`). */
  csp: AppCsp
  prefersBorder?: boolean
}

/**
 * What the chat page needs to show the MCP App a question is answered in (SEP-3118): no bridge
 * ticket, since such an app gets the question and answers it, and calls no tools.
 */
export type OpenedQuestionApp = Omit<OpenedApp, 'bridgeTicket'>

/** The MCP App a browser's waiting question is to be answered in, as the composition root finds it. */
export interface QuestionAppSource {
  /**
   * The server that asked, its tool (own name) and the app's `ui://` URI, for the question
   * `elicitId` that this client's call `callId` waits on now; undefined if it waits on no such
   * question, or on one that names no app.
   */
  questionApp(options: { clientId: string; callId: string; elicitId: string }): Promise<{ server: string; tool: string; uri: string } | undefined>
}

/**
 * Who asks: the identity the tickets belong to, and with sign-in the person, who must be in the
 * server's audience (`ToolAudience`) for anything of its app, else 403 `tool_not_allowed`.
 */
export interface AppAsker {
  clientId: string
  person?: Person
}

export interface McpAppsHost {
  /** Check that the tool has an app and that its resource is one we can show; hand out its tickets. */
  openApp(options: AppAsker & { server: string; tool: string; signal?: AbortSignal }): Promise<OpenedApp>
  /**
   * The same for the app an external server's form question names (`_meta.ui.resourceUri`): only
   * while that browser's call waits on that question, read from the server that asked.
   */
  openQuestionApp(options: AppAsker & { callId: string; elicitId: string; signal?: AbortSignal }): Promise<OpenedQuestionApp>
  /** The app's HTML under its own policy, for the browser that opened it; else an `McpAppError`. */
  serveFrame(options: AppAsker & { ticket: string; signal?: AbortSignal }): Promise<Response>
  /**
   * `tools/call` from an app: only to its own server, only tools the app may see, and one that
   * needs the person's approval only once the chat page says they gave it (`approved`).
   */
  callTool(options: AppAsker & { bridgeTicket: string; name: string; arguments: Record<string, unknown>; approved?: boolean; signal?: AbortSignal }): Promise<CallToolResult>
}

/**
 * The server half of hosting MCP Apps. The browser half (`components/mcp-app/`) speaks the
 * `ui/*` protocol with the app through the official `AppBridge`; this side reads the app's
 * resource, serves it in its sandbox, and carries the app's tool calls to its own server.
 *
 * Invariant: every ticket names one client, one server and one tool, and is checked against
 * the identity cookie of the request that presents it, so an app reaches only its own server,
 * and only for the browser that opened it.
 */
export function createMcpAppsHost({
  source,
  questions,
  audience = EVERYONE,
  secret,
  toolTimeoutMs = DEFAULT_TOOL_TIMEOUT_MS,
  tickets = createAppTicketCodec({ secret }),
}: {
  source: AppResourceSource
  /** Who may use which server's apps, as its tools (default: everyone). */
  audience?: ToolAudience
  /** Where questions' apps are found; without it no question is answered in an app. */
  questions?: QuestionAppSource
  secret: string
  toolTimeoutMs?: number
  tickets?: AppTicketCodec
}): McpAppsHost {
  async function toolOf(server: string, name: string, clientId: string): Promise<Tool | undefined> {
    try {
      return await source.getTool({ server, name, clientId })
    } catch (error) {
      if (isMcpAppError(error)) throw error
      throw new McpAppError('server_unavailable', `"${server}" cannot be reached: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** Nothing of a server's app for a person who may not use its tools: the same refusal as a slash command naming one. */
  function refuseUnlessAdmitted(server: string, person: Person | undefined) {
    if (!audience.admits(server, person)) throw new McpAppError('tool_not_allowed', `The tools of "${server}" are not yours to use: its entry in mcp.json names who may (ask an admin).`)
  }

  return {
    async openApp({ clientId, person, server, tool, signal }) {
      refuseUnlessAdmitted(server, person)
      const listed = await toolOf(server, tool, clientId)
      if (!listed) throw new McpAppError('no_app', `"${server}" has no tool named "${tool}".`)
      const uri = appResourceUriOf(listed)
      if (!uri) throw new McpAppError('no_app', `The tool "${tool}" of "${server}" has no MCP App (no ui:// _meta.ui.resourceUri).`)
      // Read now so that a broken app is a clear error in the card, not a blank frame.
      const resource = await readAppResource({ source, server, uri, clientId, signal })
      const frameTicket = tickets.issue({ kind: 'frame', clientId, server, tool, uri })
      return {
        uri,
        src: `${APP_FRAME_PATH}${frameTicket}`,
        bridgeTicket: tickets.issue({ kind: 'bridge', clientId, server, tool, uri }),
        csp: resource.csp,
        prefersBorder: resource.prefersBorder,
      }
    },

    async openQuestionApp({ clientId, person, callId, elicitId, signal }) {
      const app = await questions?.questionApp({ clientId, callId, elicitId })
      if (!app) throw new McpAppError('unknown_question', 'This question is not waiting for an answer in an MCP App (it was answered, it ended, or it names no app).')
      refuseUnlessAdmitted(app.server, person)
      const resource = await readAppResource({ source, server: app.server, uri: app.uri, clientId, signal })
      return {
        uri: app.uri,
        src: `${APP_FRAME_PATH}${tickets.issue({ kind: 'frame', clientId, server: app.server, tool: app.tool, uri: app.uri })}`,
        csp: resource.csp,
        prefersBorder: resource.prefersBorder,
      }
    },

    async serveFrame({ clientId, person, ticket, signal }) {
      const frame = tickets.verify({ token: ticket, kind: 'frame', clientId })
      if (!frame) throw new McpAppError('unknown_frame', 'No such app frame for this browser (or it expired): reload the chat.')
      refuseUnlessAdmitted(frame.server, person)
      const resource = await readAppResource({ source, server: frame.server, uri: frame.uri, clientId, signal })
      return new Response(resource.html, {
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': createAppFramePolicy(resource.csp),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
          // Not readable from another site's page (an <img>, a <script> pointing here).
          'Cross-Origin-Resource-Policy': 'same-origin',
        },
      })
    },

    async callTool({ clientId, person, bridgeTicket, name, arguments: args, approved = false, signal }) {
      const app = tickets.verify({ token: bridgeTicket, kind: 'bridge', clientId })
      if (!app) throw new McpAppError('unknown_frame', 'No such app for this browser (or it expired): reload the chat.')
      refuseUnlessAdmitted(app.server, person)
      const tool = await toolOf(app.server, name, clientId)
      if (!tool) throw new McpAppError('tool_not_allowed', `"${app.server}" has no tool named "${name}".`)
      if (!visibleToApps(tool)) throw new McpAppError('tool_not_allowed', `The tool "${name}" of "${app.server}" is not offered to apps.`)
      // An app can call tools by itself, without anybody acting in it: a tool that may change
      // things asks the person first, in the app's card, as a call the model makes would.
      if (!approved && source.needsApproval?.({ server: app.server, tool })) {
        const title = tool.title ?? tool.annotations?.title
        throw new McpAppError('approval_required', `The app asks to run ${name} on "${app.server}", which needs the person's approval first.`, {
          tool: {
            name,
            ...(title ? { title } : {}),
            description: tool.description ?? '',
            ...(tool.annotations?.destructiveHint === true ? { destructive: true } : {}),
          },
        })
      }
      const timeout = AbortSignal.timeout(toolTimeoutMs)
      try {
        return await source.callTool({ server: app.server, name, arguments: args, clientId, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
      } catch (error) {
        if (isMcpAppError(error)) throw error
        if (timeout.aborted) throw new McpAppError('server_unavailable', `"${app.server}" did not answer ${name} within ${toolTimeoutMs / 1000} s.`)
        throw new McpAppError('server_unavailable', `"${app.server}" failed to run ${name}: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
  }
}

/** `_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`, if it is a `ui://` URI. */
export function appResourceUriOf(tool: Pick<Tool, '_meta'>): string | undefined {
  const meta = tool._meta as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown } | undefined
  const uri = meta?.ui?.resourceUri ?? meta?.['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 2_000 ? uri : undefined
}
