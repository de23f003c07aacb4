import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/** `node <server-everything> stdio`: the published test server, run by the Node running the tests. */
export function everythingServer(): { command: string; args: string[] } {
  const main = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
  return { command: process.execPath, args: [main, 'stdio'] }
}

export const FAULT_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fault-server.mjs')

/** The fault server in one of its modes (see `fault-server.mjs`); `slow` answers initialize after `delayMs`. */
export function faultServer(mode: 'exit' | 'hang' | 'serve' | 'slow', delayMs?: number): { command: string; args: string[] } {
  return { command: process.execPath, args: [FAULT_SERVER, mode, ...(delayMs !== undefined ? [String(delayMs)] : [])] }
}
