// Serve the production build on PORT (default 3000).
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const server = '.next/standalone/server.js'
if (!existsSync(server)) {
  console.error('There is no production build yet: run `npm run build` first.')
  process.exit(1)
}
process.env.PORT ??= '3000'
console.log(`Chat on http://localhost:${process.env.PORT} (model: ${process.env.OPENAI_API_KEY ? 'OpenAI-compatible' : 'offline'})`)
await import(pathToFileURL(server).href)
