import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// What keeps `npm run new-plugin` from turning another test red: the framework is tested on
// fixtures of its own (lib/testing/), never on the demo plugins, so no test of lib/ counts or
// names the plugins a project happens to have. Only the composition root (lib/server/, outside
// its tests) imports plugins/; the checks of every plugin live in plugins/ itself.
const root = process.cwd()

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.(ts|tsx|mts|mjs)$/.test(entry) ? [path] : []
  })
}

/** Every module a file imports (static, re-exported, side-effect only or dynamic), as written. */
function importsOf(text: string): string[] {
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\b(?:import|vi\.mock|vi\.importActual)\(\s*['"]([^'"]+)['"]/g),
  ]
  return specifiers.map((match) => match[1]!)
}

/** The folders of a path inside the project, from its root: ['lib', 'server', 'config.ts']. */
const partsOf = (path: string) => relative(root, path).split(/[\\/]/)

/** Whether `specifier`, imported by `file`, is the project's plugins/ folder or inside it (not lib/plugins, not a package). */
function pointsIntoPlugins(file: string, specifier: string): boolean {
  const target = specifier.startsWith('@/')
    ? join(root, specifier.slice(2))
    : specifier.startsWith('./') || specifier.startsWith('../')
      ? resolve(dirname(file), specifier)
      : undefined
  return target !== undefined && partsOf(target)[0] === 'plugins'
}

const isTest = (file: string) => /\.test(-d)?\.tsx?$/.test(file)
/** The composition root: the one place of lib/ that wires the plugins in. */
const isCompositionRoot = (file: string) => partsOf(file)[0] === 'lib' && partsOf(file)[1] === 'server' && !isTest(file)

/** "lib/x.test.ts imports @/plugins/…" for each import of plugins/ in `files`. */
function pluginImports(files: string[]): string[] {
  return files.flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .filter((specifier) => pointsIntoPlugins(file, specifier))
      .map((specifier) => `${relative(root, file)} imports ${specifier}`),
  )
}

describe('the framework’s tests do not depend on the plugins', () => {
  it('finds the imports it looks for (the check itself)', () => {
    const file = join(root, 'lib', 'engine', 'example.test.ts')
    const imports = importsOf(
      [
        "import { bookFlightTool } from '@/plugins/book-flight/tool'",
        "import type { PluginName } from '../../plugins'",
        "export { plugins } from '../../plugins/index'",
        "const ui = await import('@/plugins/browser')",
        "import { makePlugin } from '../plugins'",
        "import { z } from 'zod'",
      ].join('\n'),
    )
    expect(imports).toEqual(['@/plugins/book-flight/tool', '../../plugins', '../../plugins/index', '../plugins', 'zod', '@/plugins/browser'])
    // '../plugins' from lib/engine/ is the framework's own lib/plugins.
    expect(imports.filter((specifier) => pointsIntoPlugins(file, specifier))).toEqual(['@/plugins/book-flight/tool', '../../plugins', '../../plugins/index', '@/plugins/browser'])
  })

  it('no file of lib/ but the composition root imports plugins/', () => {
    const files = filesUnder(join(root, 'lib')).filter((file) => !isCompositionRoot(file))
    expect(files.length).toBeGreaterThan(100)
    expect(pluginImports(files)).toEqual([])
  })

  it('no test of components/ or app/ imports plugins/', () => {
    const files = ['components', 'app'].flatMap((folder) => filesUnder(join(root, folder))).filter(isTest)
    expect(pluginImports(files)).toEqual([])
  })
})
