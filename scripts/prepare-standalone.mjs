// `next build` with output: 'standalone' leaves static assets out of .next/standalone;
// copy them in so that `npm start` (and a deployed copy of the folder) serves everything.
import { cpSync, existsSync } from 'node:fs'

const standalone = '.next/standalone'
if (!existsSync(standalone)) {
  console.error('No .next/standalone: is output: "standalone" still set in next.config.ts?')
  process.exit(1)
}
cpSync('.next/static', `${standalone}/.next/static`, { recursive: true })
if (existsSync('public')) cpSync('public', `${standalone}/public`, { recursive: true })
// The question apps (scripts/build-mcp-apps.mjs): the MCP server reads them from its working directory.
if (existsSync('.mcp-apps')) cpSync('.mcp-apps', `${standalone}/.mcp-apps`, { recursive: true })
// Its starter: the same DATA_DIR check and request timeouts as `npm start`, in a deployed copy.
cpSync('scripts/start.mjs', `${standalone}/start.mjs`)
console.log('Standalone server ready: node .next/standalone/start.mjs')
