import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * An MCP App page on the official App SDK, self-contained (an app may load nothing): the SDK's
 * bundle inline, its closing `export { local as Name, … }` made the global `McpApps`, since an
 * inline module exports to nobody; then `script` (a module: top-level `await` works). `body` is
 * the page's markup before the script.
 */
export function appWithSdk({ body, script }) {
  const bundle = readFileSync(createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps'), 'utf8')
  const exportAt = bundle.lastIndexOf('export{')
  const names = bundle
    .slice(exportAt + 'export{'.length, bundle.lastIndexOf('}'))
    .split(',')
    .map((entry) => entry.split(' as ').map((part) => part.trim()))
    .map(([local, name]) => `${name ?? local}:${local}`)
  const sdk = `${bundle.slice(0, exportAt)}globalThis.McpApps={${names.join(',')}};`
  return `<!doctype html><html><body>${body}<script type="module">${sdk.replaceAll('</script', '<\\/script')}
${script}
</script></body></html>`
}
