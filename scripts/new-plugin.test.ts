import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The scaffold runs in a copy of the project, so the plugin it writes never lands in this one.
const root = process.cwd()
let copy: string

// The guide's example name, unless this project already has a plugin by that name (one made by
// following the guide): then the next free one, so the test passes beside it.
const name = ['reserve-table', ...Array.from({ length: 8 }, (_, index) => `reserve-table-${index + 2}`)].find(
  (candidate) => !existsSync(join(root, 'plugins', candidate)),
)!
const camel = name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())
const pascal = camel[0]!.toUpperCase() + camel.slice(1)
const tool = name.replaceAll('-', '_')

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
  for (const entry of ['lib', 'fixtures', 'plugins', 'components', 'e2e', 'scripts', 'app', 'tsconfig.json', 'vitest.config.ts', 'package.json', 'next-env.d.ts']) {
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
    const made = run('node', ['scripts/new-plugin.mjs', name])
    expect(made.output).toContain(`Wrote plugins/${name}/`)
    expect(made.status).toBe(0)

    const after = snapshot()
    const changed = [...after.keys()].filter((file) => before.get(file) !== after.get(file)).sort()
    expect(changed.filter((file) => !file.startsWith(`plugins/${name}/`))).toEqual(['plugins/browser.ts', 'plugins/index.ts'])
    expect([...before.keys()].filter((file) => !after.has(file))).toEqual([])
    expect(changed.filter((file) => file.startsWith(`plugins/${name}/`))).toEqual(
      [
        'components/NameForm.tsx',
        'components/OptionPicker.tsx',
        `components/${pascal}Result.tsx`,
        `e2e/${name}-card.ts`,
        `e2e/${name}.spec.ts`,
        'offline.ts',
        'plugin.ts',
        `${name}.engine.test.ts`,
        'tool.ts',
      ]
        .map((file) => `plugins/${name}/${file}`)
        .sort(),
    )
    const index = after.get('plugins/index.ts')!
    expect(index).toContain(`import { ${camel}Tool } from './${name}/tool'`)
    expect(index).toContain(`import { ${camel}Offline } from './${name}/offline'`)
    // Its suggestion for the empty chat is its offline skill's example, which the every-plugin check sends to its skill.
    const phrase = name.split('-').join(' ')
    expect(index).toContain(
      `  { name: ${camel}Tool.name, tool: ${camel}Tool, offline: ${camel}Offline, suggestions: ["${phrase[0]!.toUpperCase()}${phrase.slice(1)} for tonight"] },\n] as const`,
    )
    expect(index).not.toContain(`./${name}/plugin`)
    expect(after.get('plugins/browser.ts')).toContain(`  ${tool}: () => import('./${name}/plugin').then((module) => module.${camel}Plugin),\n} satisfies`)
    // Each question is answered by its component, registered directly (each is also the question's MCP App).
    expect(after.get(`plugins/${name}/plugin.ts`)).toContain('.onElicit({ pickOption: OptionPicker, giveName: NameForm })')
    expect(after.get(`plugins/${name}/components/OptionPicker.tsx`)).toContain(`ElicitProps<typeof ${camel}Tool, 'pickOption'>`)

    // Its own tests, and the checks that run over every plugin in the list (they must take a new one as it is).
    const tested = run('npx', ['vitest', 'run', `plugins/${name}`, 'plugins/offline-skills.test.ts', 'plugins/halves.test.ts', 'plugins/mcp-forms.test.ts'])
    expect(tested.output).toMatch(/Tests\s+\d+ passed/)
    expect(tested.status).toBe(0)
  })

  // `vitest run plugins/<name>` strips types without checking them, so the scaffold's own tests
  // would pass with a type error in it. This compiles the new plugin's files and the two lists,
  // with what they import, under the project's tsconfig (paths, strict, jsx): the whole
  // project's `tsc` takes several times as long.
  it('writes a plugin that type-checks, with the two lists that name it', { timeout: 120_000 }, () => {
    const folder = join(copy, 'plugins', name)
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
    [name, `plugins/${name} already exists`],
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
