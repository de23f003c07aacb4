import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** `bad-app-server.mjs`, for an `mcp.json` (e2e) or a stdio client (unit tests). */
export const BAD_APP_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bad-app-server.mjs')
