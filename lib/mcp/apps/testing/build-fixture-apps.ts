import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository, where `scripts/build-mcp-apps.mjs` runs. */
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url))

/** The fixture's plugin list (the shape of `plugins/browser.ts`): `paint_poster`, both questions answered by components. */
export const FIXTURE_PLUGIN_LIST = 'lib/mcp/apps/testing/question-fixture/browser.ts'

export interface BuiltApps {
  directory: string
  /** What the build printed. */
  output: string
  manifest: { apps: Array<{ tool: string; key: string; uri: string; file: string; bytes: number; gzipBytes: number }> }
  html(file: string): string
  remove(): void
}

/**
 * How long a `beforeAll` that calls `buildFixtureApps` may take: the build is a real esbuild and
 * Tailwind run in a process of its own, seconds on a quiet machine and many more on a busy one
 * (vitest's default of 10 s failed under load). A deadline against a hang, not a speed test.
 */
export const BUILD_FIXTURE_APPS_TIMEOUT_MS = 180_000

/** Runs the real build script (a process, as `npm run build` does) on the fixture's plugins, into a fresh folder. */
export function buildFixtureApps(): BuiltApps {
  const directory = mkdtempSync(path.join(tmpdir(), 'question-apps-'))
  const output = execFileSync(process.execPath, ['scripts/build-mcp-apps.mjs', '--plugins', FIXTURE_PLUGIN_LIST, '--out', directory], { cwd: ROOT, encoding: 'utf8' })
  return {
    directory,
    output,
    manifest: JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8')),
    html: (file) => readFileSync(path.join(directory, file), 'utf8'),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  }
}
