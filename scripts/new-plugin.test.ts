import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The scaffold runs in a copy of the project, so the plugin it writes never lands in this one.
const root = process.cwd()
let copy: string

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: copy, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** Every file of the copy (but node_modules) with its contents. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory)) {
      const path = join(directory, entry)
      if (entry === 'node_modules') continue
      if (statSync(path).isDirectory()) walk(path)
      else files.set(relative(copy, path), readFileSync(path, 'utf8'))
    }
  }
  walk(copy)
  return files
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'new-plugin-'))
  for (const entry of ['lib', 'plugins', 'components', 'e2e', 'scripts', 'app', 'tsconfig.json', 'vitest.config.ts', 'package.json', 'next-env.d.ts']) {
    try {
      cpSync(join(root, entry), join(copy, entry), { recursive: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir')
})
afterAll(() => rmSync(copy, { recursive: true, force: true }))

describe('npm run new-plugin', () => {
  it('writes a plugin whose tests and the checks of every plugin pass, changing nothing but its folder and the two lists', { timeout: 120_000 }, () => {
    const before = snapshot()
    const made = run('node', ['scripts/new-plugin.mjs', 'reserve-table'])
    expect(made.output).toContain('Wrote plugins/reserve-table/')
    expect(made.status).toBe(0)

    const after = snapshot()
    const changed = [...after.keys()].filter((file) => before.get(file) !== after.get(file)).sort()
    expect(changed.filter((file) => !file.startsWith('plugins/reserve-table/'))).toEqual(['plugins/browser.ts', 'plugins/index.ts'])
    expect([...before.keys()].filter((file) => !after.has(file))).toEqual([])
    expect(changed.filter((file) => file.startsWith('plugins/reserve-table/'))).toEqual(
      [
        'components/NameForm.tsx',
        'components/OptionPicker.tsx',
        'components/ReserveTableResult.tsx',
        'e2e/reserve-table-card.ts',
        'e2e/reserve-table.spec.ts',
        'offline.ts',
        'plugin.ts',
        'reserve-table.engine.test.ts',
        'tool.ts',
      ].map((file) => `plugins/reserve-table/${file}`),
    )
    const index = after.get('plugins/index.ts')!
    expect(index).toContain("import { reserveTableTool } from './reserve-table/tool'")
    expect(index).toContain("import { reserveTableOffline } from './reserve-table/offline'")
    expect(index).toContain('  { name: reserveTableTool.name, tool: reserveTableTool, offline: reserveTableOffline },\n] as const')
    expect(index).not.toContain('./reserve-table/plugin')
    expect(after.get('plugins/browser.ts')).toContain("  reserve_table: () => import('./reserve-table/plugin').then((module) => module.reserveTablePlugin),\n} satisfies")
    // Each question is answered by its component, registered directly (each is also the question's MCP App).
    expect(after.get('plugins/reserve-table/plugin.ts')).toContain('.onElicit({ pickOption: OptionPicker, giveName: NameForm })')
    expect(after.get('plugins/reserve-table/components/OptionPicker.tsx')).toContain("ElicitProps<typeof reserveTableTool, 'pickOption'>")

    // Its own tests, and the checks that run over every plugin in the list (they must take a new one as it is).
    const tested = run('npx', ['vitest', 'run', 'plugins/reserve-table', 'plugins/offline-skills.test.ts', 'plugins/halves.test.ts', 'plugins/mcp-forms.test.ts'])
    expect(tested.output).toMatch(/Tests\s+\d+ passed/)
    expect(tested.status).toBe(0)
  })

  // `vitest run plugins/<name>` strips types without checking them, so the scaffold's own tests
  // would pass with a type error in it. This compiles the new plugin's files and the two lists,
  // with what they import, under the project's tsconfig (paths, strict, jsx): the whole
  // project's `tsc` takes several times as long.
  it('writes a plugin that type-checks, with the two lists that name it', { timeout: 120_000 }, () => {
    const folder = join(copy, 'plugins', 'reserve-table')
    const files = (directory: string): string[] =>
      readdirSync(directory).flatMap((entry) => {
        const path = join(directory, entry)
        return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(entry) ? [path] : []
      })
    const roots = [...files(folder), join(copy, 'plugins', 'index.ts'), join(copy, 'plugins', 'browser.ts')]
    expect(roots.length).toBeGreaterThanOrEqual(11)

    const config = ts.getParsedCommandLineOfConfigFile(join(copy, 'tsconfig.json'), { incremental: false, noEmit: true }, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    })!
    expect(config.errors).toEqual([])
    const program = ts.createProgram({ rootNames: roots, options: config.options })
    const diagnostics = ts.getPreEmitDiagnostics(program)
    const report = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => copy,
      getNewLine: () => '\n',
    })
    expect(report).toBe('')
    expect(diagnostics).toHaveLength(0)
    // It did check the plugin, not only find it.
    expect(program.getSourceFile(join(folder, 'tool.ts'))).toBeDefined()
  })

  it.each([
    ['reserve-table', 'plugins/reserve-table already exists'],
    ['book-flight', 'plugins/book-flight already exists'],
    ['Reserve Table', 'is not a valid plugin folder name'],
    ['../escape', 'is not a valid plugin folder name'],
    ['double--hyphen', 'is not a valid plugin folder name'],
    ['9lives', 'is not a valid plugin folder name'],
    ['', 'give one name'],
  ])('refuses %j with a clear message and writes nothing', (name, message) => {
    const before = snapshot()
    const refused = run('node', ['scripts/new-plugin.mjs', ...(name ? [name] : [])])
    expect(refused.status).toBe(1)
    expect(refused.output).toContain(message)
    expect(snapshot()).toEqual(before)
  })
})
