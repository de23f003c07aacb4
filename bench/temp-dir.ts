import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Every directory made here and not yet removed, removed when the bench exits whatever happens. */
const made = new Set<string>()
process.once('exit', () => {
  for (const path of made) rmSync(path, { recursive: true, force: true })
})

/** A fresh directory in the temp directory, `elicit-bench-<name>-XXXXXX`, and how to remove it. */
export function makeTempDir(name: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `elicit-bench-${name}-`))
  made.add(path)
  return {
    path,
    remove() {
      rmSync(path, { recursive: true, force: true })
      made.delete(path)
    },
  }
}
