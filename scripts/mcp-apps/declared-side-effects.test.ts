import * as esbuild from 'esbuild'
import { describe, expect, it } from 'vitest'
import { declaredSideEffects } from './declared-side-effects.mjs'

/** An app-like entry that imports effection (as a shared module of the app's might) and runs none of it. */
async function bundle(plugins: esbuild.Plugin[]): Promise<string> {
  const { outputFiles } = await esbuild.build({
    absWorkingDir: process.cwd(),
    stdin: { contents: `import { createScope } from 'effection'\nconst unused = () => createScope\nconsole.log('app')`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    external: ['node:*'],
    write: false,
    logLevel: 'silent',
    plugins,
  })
  return outputFiles[0]!.text
}

describe('scripts/mcp-apps/declared-side-effects.mjs', () => {
  it("drops the effection modules an app bundle imports but never runs, as effection's package declares", async () => {
    const without = await bundle([])
    const withPlugin = await bundle([declaredSideEffects])
    // Without it, esbuild keeps effection's modules whole (their nested package.json hides the declaration).
    expect(without.length).toBeGreaterThan(10_000)
    expect(withPlugin.length).toBeLessThan(200)
    expect(withPlugin).toContain('console.log("app")')
  })
})
