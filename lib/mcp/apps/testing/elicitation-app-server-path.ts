import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** `elicitation-app-server.mjs`, for an `mcp.json` (e2e) or the chat's connections (unit tests). */
export const ELICITATION_APP_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'elicitation-app-server.mjs')

/** `node elicitation-app-server.mjs`: a server whose tool asks an app-rendered question (see the file). */
export function elicitationAppServer({ advertise = true }: { advertise?: boolean } = {}): { command: string; args: string[] } {
  return { command: process.execPath, args: [ELICITATION_APP_SERVER, ...(advertise ? [] : ['--no-advertise'])] }
}
