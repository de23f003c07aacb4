import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The layers of `lib/`, each with the areas it may import (the picture and the same table:
 * docs/architecture.md, checked below; the edge's direction is argued in lib/http/index.ts). A
 * layer imports only what is listed here; `plugins/` (the app's plugins) only the composition
 * root does. Packages are not checked.
 *
 * Tests are not held to it: a test runs its layer through the ones above when that is what a
 * user meets (a builder's test runs its tool through the runtime, an MCP-host test drives the chat
 * engine). What a layer's own code imports is what a change to a higher layer could break, and
 * that is what this keeps one-way. A layer's test helpers (`testing/`) are held to it too, and may
 * also use the shared helpers (`lib/testing`) and the framework's fixture plugin (`fixtures/book-train`, outside
 * the layers like any plugin) — never the app's plugins (see scripts/new-plugin-framework.test.ts).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'lib/protocol': [],
  'lib/tools': ['lib/protocol'],
  'lib/models': ['lib/protocol', 'lib/tools'],
  'lib/runtime': ['lib/protocol', 'lib/tools', 'lib/models'],
  // What every store opens: the embedded database, the Redis client.
  'lib/storage': [],
  'lib/sessions': ['lib/protocol', 'lib/tools', 'lib/models', 'lib/runtime', 'lib/storage'],
  // What the server tells its operator (logs, metrics): observed by the edge and the composition root.
  'lib/telemetry': [],
  'lib/http': ['lib/protocol', 'lib/sessions', 'lib/telemetry'],
  // The model budgets: counted per account and day in a store; a new message refused with the edge's refusal.
  'lib/budgets': ['lib/http', 'lib/storage'],
  'lib/engine': ['lib/protocol', 'lib/tools', 'lib/models', 'lib/runtime', 'lib/sessions', 'lib/http', 'lib/budgets'],
  'lib/plugins': ['lib/protocol', 'lib/tools', 'lib/models'],
  'lib/mcp': ['lib/protocol', 'lib/tools', 'lib/models', 'lib/runtime', 'lib/sessions', 'lib/http', 'lib/plugins', 'lib/storage'],
  'lib/client': ['lib/protocol', 'lib/tools', 'lib/plugins'],
  // The chats kept on the server: the events they hold are the protocol's, the API's edge is lib/http's.
  'lib/conversations': ['lib/protocol', 'lib/http', 'lib/storage'],
  // Continue on another device: the identity cookie and the edge's refusals are lib/http's; its revoked() check is injected, so lib/http never imports this.
  'lib/devices': ['lib/http', 'lib/storage'],
  // Sign-in: the account fills the edge's identity seam and answers with its refusal; its sessions are kept as every store keeps data.
  'lib/auth': ['lib/http', 'lib/storage'],
  'lib/server': ['lib/auth', 'lib/protocol', 'lib/tools', 'lib/models', 'lib/runtime', 'lib/sessions', 'lib/http', 'lib/engine', 'lib/plugins', 'lib/mcp', 'lib/conversations', 'lib/devices', 'lib/budgets', 'lib/telemetry', 'plugins'],
  'lib/testing': [],
}
const TEST_HELPERS_MAY_ALSO_IMPORT = ['lib/testing', 'fixtures']
/** The most lines a source file of lib/ may have (its tests are not counted). */
const MAX_LINES = 400

/** A layer's own part of a pattern every layer repeats: a file of this name may be in several. */
const REPEATED_IN_EACH_LAYER = ['index.ts', 'errors.ts', 'types.ts', 'limits.ts', 'api-schema.ts', 'memory-store.ts', 'embedded-store.ts', 'redis-store.ts']
/** The areas outside lib/, each one folder: the pages and routes, the chat UI, the plugins, the fixture plugins. */
const OUTSIDE_LIB = ['app', 'components', 'plugins', 'fixtures']

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${directory}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(relative)
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [relative] : []
  })
}

/** Every module `file` names in an import, an `export … from` or an `import()`, as a path from the root; packages left out. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!)
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('@/')) return [specifier.slice(2)]
    if (specifier.startsWith('.')) return [path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))]
    return []
  })
}

/** The area a path belongs to: `lib/<layer>` inside lib, else its top-level folder. */
function areaOf(file: string): string {
  const [top, second] = file.split('/')
  return top === 'lib' && second && !second.includes('.') ? `lib/${second}` : top!
}

describe('the layers of lib/', () => {
  const files = sourceFiles('lib')

  it('knows every area of lib/', () => {
    const areas = [...new Set(files.map(areaOf))].filter((area) => area.startsWith('lib/'))
    expect(areas.filter((area) => !(area in MAY_IMPORT))).toEqual([])
  })

  it('has no layer import one it may not: protocol imports nothing of ours, nothing imports a layer above it, lib/mcp never the engine', () => {
    const forbidden = files.flatMap((file) => {
      const allowed = [...(MAY_IMPORT[areaOf(file)] ?? []), ...(file.includes('/testing/') ? TEST_HELPERS_MAY_ALSO_IMPORT : [])]
      return importsOf(file)
        .filter((target) => areaOf(target) !== areaOf(file) && !allowed.includes(areaOf(target)))
        .map((target) => `${file} imports ${target} (${areaOf(file)} may import ${allowed.join(', ') || 'nothing of ours'})`)
    })
    expect(forbidden).toEqual([])
  })

  it('is what docs/architecture.md says: its table row for row, and every layer in its picture', () => {
    const page = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')
    const lines = page.split('\n')
    const header = lines.findIndex((line) => line.startsWith('| area | may import |'))
    expect(header, 'the table of docs/architecture.md').toBeGreaterThanOrEqual(0)
    const rows: Array<[string, string[]]> = []
    for (let index = header + 2; lines[index]?.startsWith('|'); index++) {
      const [area, imports] = lines[index]!.split('|').slice(1, -1).map((cell) => cell.replaceAll('`', '').trim())
      const names = imports === 'nothing of ours' ? [] : imports!.split(',').map((name) => name.trim())
      rows.push([area!, names.map((name) => (name === 'plugins/' ? 'plugins' : `lib/${name}`)).sort()])
    }
    const sorted = (table: Record<string, readonly string[]>) => Object.fromEntries(Object.entries(table).map(([area, names]) => [area, [...names].sort()]))
    expect(Object.fromEntries(rows)).toEqual(sorted(MAY_IMPORT))

    const picture = page.slice(page.indexOf('```'), page.indexOf('```', page.indexOf('```') + 3))
    const drawn = new Set(picture.match(/lib\/[a-z]+/g))
    expect(Object.keys(MAY_IMPORT).filter((area) => area !== 'lib/testing' && !drawn.has(area))).toEqual([])
  })

  it('has no two files in different layers share a name, but the parts every layer repeats (its index, errors, stores)', () => {
    const layersOf = new Map<string, Set<string>>()
    for (const file of files) {
      const name = path.posix.basename(file)
      if (REPEATED_IN_EACH_LAYER.includes(name)) continue
      layersOf.set(name, (layersOf.get(name) ?? new Set()).add(areaOf(file)))
    }
    expect([...layersOf].filter(([, layers]) => layers.size > 1).map(([name, layers]) => `${name} in ${[...layers].join(', ')}`)).toEqual([])
  })

  it('has no area import one that imports it back, inside lib/ or out of it (components/ never imports plugins/, whose components import the kit)', () => {
    const outside = OUTSIDE_LIB.flatMap((folder) => sourceFiles(folder)).filter((file) => !file.includes('/testing/') && !file.includes('/e2e/'))
    const edges = new Set<string>()
    for (const file of [...files.filter((file) => !file.includes('/testing/')), ...outside]) {
      for (const target of importsOf(file)) if (areaOf(target) !== areaOf(file)) edges.add(`${areaOf(file)} → ${areaOf(target)}`)
    }
    const back = [...edges].filter((edge) => {
      const [from, to] = edge.split(' → ')
      return edges.has(`${to} → ${from}`)
    })
    expect(back).toEqual([])
  })

  it('has no file of lib/ over 400 lines: a longer one holds more than one concept, to be split by concept', () => {
    const long = files
      .map((file) => [file, readFileSync(path.join(root, file), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([file, lines]) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })

  it('finds the imports it checks', () => {
    // A guard on the check itself: a pattern that matched nothing would pass every file.
    expect(importsOf('lib/http/handle-chat-request.ts')).toEqual(expect.arrayContaining(['lib/http/client-address', 'lib/http/errors']))
    expect(importsOf('lib/engine/chat-server.ts')).toEqual(expect.arrayContaining(['lib/sessions', 'lib/http/errors']))
    expect(files).toEqual(expect.arrayContaining(['lib/protocol/events.ts', 'lib/mcp/server/mcp-endpoint.ts']))
    expect(importsOf('app/(chats)/chats-with-plugins.tsx')).toEqual(expect.arrayContaining(['plugins/browser', 'components/chat-registry']))
  })
})
