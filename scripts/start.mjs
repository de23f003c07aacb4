// Serve the production build on PORT (default 3000).
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const server = '.next/standalone/server.js'
if (!existsSync(server)) {
  console.error('There is no production build yet: run `npm run build` first.')
  process.exit(1)
}

// The standalone server changes directory into .next/standalone, which the next build wipes:
// a relative DATA_DIR means the directory this was started from, so pass it on absolute.
const dataDir = path.resolve(process.cwd(), process.env.DATA_DIR?.trim() || '.data')
const probe = path.join(dataDir, `.write-check-${process.pid}-${randomBytes(6).toString('hex')}`)
try {
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(probe, '', { flag: 'wx' })
  unlinkSync(probe)
} catch (error) {
  console.error(
    `Cannot start: DATA_DIR ${dataDir} cannot be created or written (${error?.code ?? error?.message ?? error}).\n` +
      'Set DATA_DIR to a directory this process can write, or give it write permission.',
  )
  process.exit(1)
}
process.env.DATA_DIR = dataDir

process.env.PORT ??= '3000'
console.log(`Chat on http://localhost:${process.env.PORT} (model: ${process.env.OPENAI_API_KEY ? 'OpenAI-compatible' : 'offline'}; data: ${dataDir})`)
await import(pathToFileURL(server).href)
