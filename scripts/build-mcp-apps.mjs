// `node scripts/build-mcp-apps.mjs` (run by `npm run build` before `next build`): every question a
// plugin answers with a component (its registration's `components`, read from plugins/browser.ts)
// becomes an MCP App, ui://<tool>/<key>: one self-contained HTML document bundling the same
// component file the chat renders. Written to .mcp-apps/ with manifest.json (tool, key, uri, file,
// sizes), which the MCP server reads to serve the apps and attach them to their questions;
// prepare-standalone.mjs copies the folder into the standalone server. Prints each app's gzip size.
//
// Options (for tests and other plugin lists): --plugins <module exporting pluginUis> --out <dir>
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { bundleQuestionApp, loadTailwindConfig } from './mcp-apps/bundle-question-app.mjs'
import { discoverQuestionComponents } from './mcp-apps/discover-question-components.mjs'

/** What each app should weigh at most (docs/mcp-server.md, "Size"). */
export const APP_GZIP_BUDGET = 60 * 1024

export const DEFAULT_APPS_DIR = '.mcp-apps'

/**
 * Builds the apps of `pluginList`'s plugins into `outDir` (emptied first) and writes its manifest.
 * @param {{ root?: string, pluginList?: string, outDir?: string, log?: (line: string) => void }} options
 */
export async function buildMcpApps({ root = process.cwd(), pluginList = 'plugins/browser.ts', outDir = DEFAULT_APPS_DIR, log = console.log } = {}) {
  const out = path.resolve(root, outDir)
  const cacheDir = path.join(root, 'node_modules', '.cache', 'build-mcp-apps', String(process.pid))
  try {
    const questions = await discoverQuestionComponents({ root, pluginList, cacheDir: path.join(cacheDir, 'discover') })
    const tailwindConfig = await loadTailwindConfig({ root, cacheDir })
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out, { recursive: true })
    const apps = []
    for (const question of questions) {
      const html = await bundleQuestionApp({ root, ...question, tailwindConfig })
      const file = `${question.tool}/${question.key}.html`
      mkdirSync(path.join(out, question.tool), { recursive: true })
      writeFileSync(path.join(out, file), html)
      const bytes = Buffer.byteLength(html)
      const gzipBytes = gzipSync(html, { level: 9 }).length
      apps.push({ tool: question.tool, key: question.key, uri: `ui://${question.tool}/${question.key}`, file, bytes, gzipBytes })
    }
    writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify({ apps }, null, 2)}\n`)
    log(`MCP Apps (${path.relative(root, out) || out}): ${apps.length === 0 ? 'none — no plugin registers a question component' : ''}`)
    for (const app of apps) {
      const over = app.gzipBytes > APP_GZIP_BUDGET ? `  over the ${kb(APP_GZIP_BUDGET)} budget` : ''
      log(`  ${app.uri.padEnd(40)} ${kb(app.gzipBytes).padStart(9)} gzip  (${kb(app.bytes)})${over}`)
    }
    return apps
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
  }
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const option = (name) => {
    const index = process.argv.indexOf(name)
    return index === -1 ? undefined : process.argv[index + 1]
  }
  try {
    await buildMcpApps({ pluginList: option('--plugins'), outDir: option('--out') })
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
