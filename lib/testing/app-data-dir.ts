import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/**
 * For a test file that runs the app's routes in-process, wired to the app's instances as Next
 * runs them (lib/server): a `DATA_DIR` of its own, where they keep their databases, and no
 * external MCP servers (`MCP_CONFIG` empty: the chat app starts without any). Set before the
 * file's first test; after its last the variables are as they were and the directory is gone.
 * Returns the directory.
 */
export function useAppDataDir(prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  const saved = { DATA_DIR: process.env.DATA_DIR, MCP_CONFIG: process.env.MCP_CONFIG }
  beforeAll(() => {
    process.env.DATA_DIR = dataDir
    process.env.MCP_CONFIG = ''
  })
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    rmSync(dataDir, { recursive: true, force: true })
  })
  return dataDir
}
