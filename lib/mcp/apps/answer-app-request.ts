import { z } from 'zod'
import { ChatRequestError, clientAddressOf, toChatFailure, type Admission, type ClientIdentity, type ClientIdentityResolver } from '../../http'
import type { AppAsker, McpAppsHost } from './mcp-apps-host'
import { McpAppError, isMcpAppError } from './mcp-app-error'

/** What every MCP Apps route needs; `host` is missing when no external server is configured. */
export interface McpAppsApp {
  host?: McpAppsHost
  identity: ClientIdentityResolver
  /** The chat's admission: an MCP Apps request is new work, charged to its address and to the server. */
  admission?: Pick<Admission, 'take'>
}

/**
 * The part every MCP Apps route shares: who is asking (the identity cookie), a refusal for
 * requests made by another site or by a sandboxed document (an app's own frame has the
 * origin `null`), the rate limit, and errors as `{ error: { code, message } }` with their
 * status. `handle` parses and delegates.
 */
export async function answerAppRequest({
  request,
  app,
  handle,
}: {
  request: Request
  app: McpAppsApp
  /** `asker`: the identity and, with sign-in, the person, as the host's methods take them. */
  handle(options: { host: McpAppsHost; asker: AppAsker }): Promise<Response>
}): Promise<Response> {
  let client: ClientIdentity | undefined
  try {
    client = await app.identity.identify(request)
    // Browsers say who made a request: the chat page (its fetches, its iframes' loads) is
    // same-origin; `none` is the user's own navigation (the address bar), never another site's.
    const site = request.headers.get('sec-fetch-site')
    if (request.headers.get('origin') === 'null' || (site !== null && site !== 'same-origin' && site !== 'none')) {
      throw new McpAppError('forbidden_origin', 'MCP Apps routes answer the chat page only.')
    }
    const rate = app.admission?.take(clientAddressOf(request))
    if (rate && !rate.allowed) {
      const message =
        rate.scope === 'address' ? 'Too many requests from your address. Wait a moment, then try again.' : 'The server is taking too many requests right now. Wait a moment, then try again.'
      return new ChatRequestError('rate_limited', message, undefined, rate.retryAfterSeconds, rate.scope).toResponse(client.headers)
    }
    if (!app.host) throw new McpAppError('not_configured', 'No external MCP servers are configured (mcp.json), so there are no MCP Apps.')
    const response = await handle({ host: app.host, asker: { clientId: client.clientId, ...(client.person ? { person: client.person } : {}) } })
    for (const [name, value] of Object.entries(client.headers)) response.headers.set(name, value)
    return response
  } catch (error) {
    if (isMcpAppError(error)) return error.toResponse(client?.headers)
    // A refusal of the edge's, or the session store down (503 store_unavailable), as the chat route answers them.
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse(client?.headers)
    throw error
  }
}

/** A body that does not match its schema: a 400 naming the first field that is wrong. */
export function parseAppBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw new McpAppError('invalid_request', `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
}
