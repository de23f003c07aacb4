import { z } from 'zod'
import type { AppResourceSource } from './app-resource-source'
import { appCspSchema, type AppCsp } from './app-frame-policy'
import { McpAppError, isMcpAppError } from './mcp-app-error'
import { MCP_APP_MIME_TYPE } from '../mcp-apps-extension'

/** The one MIME type of an MCP App's HTML (MCP Apps 2026-01-26). */
export const APP_MIME_TYPE = MCP_APP_MIME_TYPE
/** Larger than any single-file app we know (server-basic-react's is 0.4 MB); more is refused. */
export const MAX_APP_HTML_BYTES = 4 * 1024 * 1024

export interface AppResource {
  html: string
  csp: AppCsp
  prefersBorder?: boolean
}

const uiMetaSchema = z.object({ csp: appCspSchema.optional(), prefersBorder: z.boolean().optional() })

const contentSchema = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
  _meta: z.object({ ui: z.unknown().optional() }).loose().optional(),
})

/**
 * Read an MCP App's `ui://` resource from its server and check it is one: the entry for that
 * URI, of type `text/html;profile=mcp-app`, as text (or base64), at most `MAX_APP_HTML_BYTES`,
 * with a `_meta.ui.csp` we can apply. Anything else is an `McpAppError` naming what is wrong.
 */
export async function readAppResource({
  source,
  server,
  uri,
  clientId,
  signal,
}: {
  source: AppResourceSource
  server: string
  uri: string
  /** Who asks (whose own connection serves a server each person connects to). */
  clientId: string
  signal?: AbortSignal
}): Promise<AppResource> {
  let result: unknown
  try {
    result = await source.readResource({ server, uri, clientId, signal })
  } catch (error) {
    if (isMcpAppError(error)) throw error
    throw new McpAppError('server_unavailable', `"${server}" could not read ${uri}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const contents = z.object({ contents: z.array(z.unknown()).max(64) }).safeParse(result)
  if (!contents.success) throw invalid(server, uri, 'the answer has no contents list')
  const entry = contents.data.contents.map((item) => contentSchema.safeParse(item)).find((parsed) => parsed.success && parsed.data.uri === uri)
  if (!entry?.success) throw invalid(server, uri, `no content entry for ${uri}`)
  const content = entry.data
  const mimeType = content.mimeType?.replace(/\s+/g, '').toLowerCase()
  if (mimeType !== APP_MIME_TYPE) {
    throw invalid(server, uri, `its type is ${content.mimeType ? `"${content.mimeType}"` : 'missing'}, not "${APP_MIME_TYPE}"`)
  }
  if (content.text === undefined && content.blob === undefined) throw invalid(server, uri, 'it has neither text nor a blob')
  // Measured before decoding: base64 holds 3 bytes in 4 characters.
  const bytes = content.text !== undefined ? Buffer.byteLength(content.text) : Math.floor((content.blob!.length * 3) / 4)
  if (bytes > MAX_APP_HTML_BYTES) {
    throw new McpAppError(
      'app_resource_too_large',
      `The app ${uri} of "${server}" is ${(bytes / 1024 / 1024).toFixed(1)} MiB; at most ${MAX_APP_HTML_BYTES / 1024 / 1024} MiB is shown.`,
    )
  }
  const html = content.text ?? Buffer.from(content.blob!, 'base64').toString('utf8')
  const ui = uiMetaSchema.safeParse(content._meta?.ui ?? {})
  if (!ui.success) {
    const issue = ui.error.issues[0]!
    throw invalid(server, uri, `its _meta.ui.${issue.path.join('.')} is not usable: ${issue.message}`)
  }
  return { html, csp: ui.data.csp ?? {}, prefersBorder: ui.data.prefersBorder }
}

function invalid(server: string, uri: string, why: string) {
  return new McpAppError('invalid_app_resource', `"${server}" did not send a usable MCP App for ${uri}: ${why}.`)
}
