import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { EXTENSION_ID, RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server'
import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'

/** One question's MCP App: the HTML `scripts/build-mcp-apps.mjs` built from its component. */
export interface QuestionApp {
  tool: string
  key: string
  /** `ui://<tool>/<key>` */
  uri: string
  html: string
}

/** The question apps a server serves, and which question each belongs to. */
export interface QuestionApps {
  readonly apps: readonly QuestionApp[]
  /** The app of `tool`'s question `key`, if it has one: the `_meta.ui.resourceUri` of its elicitations. */
  uriFor(tool: string, key: string): string | undefined
}

/**
 * The server's MCP Apps extension settings: it may render form elicitations with apps
 * (SEP-3118), advertised in `initialize` (2025-11-25) and `server/discover` (2026-07-28).
 */
export const QUESTION_APPS_EXTENSION = { [EXTENSION_ID]: { elicitation: {} } } as const

export const NO_QUESTION_APPS: QuestionApps = createQuestionApps([])

export function createQuestionApps(apps: readonly QuestionApp[]): QuestionApps {
  const byQuestion = new Map(apps.map((app) => [`${app.tool}\n${app.key}`, app.uri]))
  return { apps, uriFor: (tool, key) => byQuestion.get(`${tool}\n${key}`) }
}

const manifestSchema = z.object({
  apps: z.array(
    z.object({
      tool: z.string().min(1),
      key: z.string().min(1),
      uri: z.string().startsWith('ui://'),
      file: z.string().min(1),
    }),
  ),
})

/**
 * The apps built into `directory` (its `manifest.json`, as `scripts/build-mcp-apps.mjs` writes
 * it). No manifest means no apps: every question is a plain form. A manifest that does not
 * read, or names a file that is not there, is an error naming it — refused when the server
 * starts, not in front of a user later.
 */
export function readQuestionApps(directory: string): QuestionApps {
  const manifestPath = path.join(directory, 'manifest.json')
  if (!existsSync(manifestPath)) return NO_QUESTION_APPS
  let manifest: z.infer<typeof manifestSchema>
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')))
  } catch (error) {
    throw new Error(`${manifestPath} is not a question apps manifest (rebuild with npm run build:apps): ${error instanceof Error ? error.message : String(error)}`)
  }
  return createQuestionApps(
    manifest.apps.map(({ tool, key, uri, file }) => {
      const htmlPath = path.resolve(directory, file)
      if (!htmlPath.startsWith(path.resolve(directory) + path.sep)) throw new Error(`${manifestPath} names ${file}, outside its folder`)
      if (!existsSync(htmlPath)) throw new Error(`${manifestPath} names ${file}, which is not there (rebuild with npm run build:apps)`)
      return { tool, key, uri, html: readFileSync(htmlPath, 'utf8') }
    }),
  )
}

/**
 * Serves each app as a resource (`resources/list`, `resources/read`), `text/html;profile=mcp-app`.
 * Its `_meta.ui` asks for no network (no `csp` domains: the document is self-contained) and no
 * border from the host, since the component draws its own panel. An unknown `ui://` URI is the
 * SDK's resource-not-found error.
 */
export function registerQuestionApps(server: McpServer, apps: QuestionApps): void {
  const meta = { ui: { prefersBorder: false } }
  for (const app of apps.apps) {
    registerAppResource(
      server,
      `${app.tool}-${app.key}`,
      app.uri,
      {
        title: `${app.tool}: ${app.key}`,
        description: `The ${app.key} question of ${app.tool}, drawn by its own component (an MCP App for app-rendered elicitations).`,
        _meta: meta,
      },
      () => ({ contents: [{ uri: app.uri, mimeType: RESOURCE_MIME_TYPE, text: app.html, _meta: meta }] }),
    )
  }
}
