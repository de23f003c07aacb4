// `npm run new-plugin <name>`: writes a working plugin into plugins/<name>/ (a tool with two
// questions, two components, a result view, an offline skill, an engine test and a Playwright
// spec) and adds it to plugins/index.ts and plugins/browser.ts. Nothing else changes. See docs/plugins.md.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const templates = join(dirname(fileURLToPath(import.meta.url)), 'new-plugin', 'templates')
const root = process.cwd()
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

function refuse(message) {
  console.error(`new-plugin: ${message}`)
  process.exit(1)
}

const name = process.argv[2]
if (process.argv.length !== 3 || !name) refuse('give one name, e.g. `npm run new-plugin reserve-table`.')
if (!NAME.test(name) || name.length > 40) {
  refuse(
    `"${name}" is not a valid plugin folder name: use lower-case letters and digits in words joined by single hyphens, ` +
      'starting with a letter, at most 40 characters (e.g. reserve-table).',
  )
}
const folder = join(root, 'plugins', name)
if (existsSync(folder)) refuse(`plugins/${name} already exists; choose another name or remove that folder first.`)

const words = name.split('-')
const camel = words.map((word, index) => (index === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('')
const pascal = camel[0].toUpperCase() + camel.slice(1)
const tool = words.join('_')
const phrase = words.join(' ')
const index = join(root, 'plugins', 'index.ts')
const list = readFileSync(index, 'utf8')
if (new RegExp(`\\b${camel}Tool\\b`).test(list)) refuse(`plugins/index.ts already has a tool called ${camel}Tool.`)
if (list.includes(`'${tool}'`)) refuse(`a tool called ${tool} is already listed.`)

// The two lists a plugin joins: its server half (tool and offline skill) in plugins/index.ts,
// its browser half in plugins/browser.ts.
const browser = join(root, 'plugins', 'browser.ts')
const browserList = readFileSync(browser, 'utf8')
const serverEnd = /\n\] as const/
const browserEnd = /\n\} satisfies PluginUiLoaders/
if (!/export const plugins = \[/.test(list) || !serverEnd.test(list)) refuse('plugins/index.ts has no `export const plugins = [ ... ] as const` list to add the plugin to.')
if (!browserEnd.test(browserList)) refuse('plugins/browser.ts has no `const loaders = { ... } satisfies PluginUiLoaders` list to add the plugin to.')
const lastImport = [...list.matchAll(/^import .*$/gm)].at(-1)
if (!lastImport) refuse('plugins/index.ts has no imports to add to.')

const tokens = {
  __folder__: name,
  __tool__: tool,
  __camel__: camel,
  __Pascal__: pascal,
  __phrase__: phrase,
  __Phrase__: phrase[0].toUpperCase() + phrase.slice(1),
  __Title__: phrase[0].toUpperCase() + phrase.slice(1),
  __PREFIX__: words.join('').slice(0, 3).toUpperCase().padEnd(3, 'X'),
  // Each word, in order, as a whole word: bounded work on any message (the model reads 4 KB at most).
  __REGEX__: `/${words.map((word) => `\\b${word}\\b`).join('[^]*?')}/i`,
}
const fill = (text) => Object.entries(tokens).reduce((result, [token, value]) => result.replaceAll(token, value), text)

const written = []
function copy(from, to) {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry)
    if (statSync(source).isDirectory()) {
      copy(source, join(to, entry))
      continue
    }
    const target = join(to, fill(entry).replace(/\.tmpl$/, ''))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, fill(readFileSync(source, 'utf8')))
    written.push(relative(root, target))
  }
}
copy(templates, folder)

const updated = list
  .replace(serverEnd, `\n  { name: ${camel}Tool.name, tool: ${camel}Tool, offline: ${camel}Offline, suggestions: [${JSON.stringify(`${tokens.__Phrase__} for tonight`)}] },\n] as const`)
  .replace(lastImport[0], [lastImport[0], `import { ${camel}Offline } from './${name}/offline'`, `import { ${camel}Tool } from './${name}/tool'`].join('\n'))
writeFileSync(index, updated)
writeFileSync(
  browser,
  browserList.replace(browserEnd, `\n  ${tool}: () => import('./${name}/plugin').then((module) => module.${camel}Plugin),\n} satisfies PluginUiLoaders`),
)

console.log(`Wrote plugins/${name}/, added ${camel}Tool and ${camel}Offline to plugins/index.ts and ${camel}Plugin to plugins/browser.ts:`)
for (const file of written.sort()) console.log(`  ${file}`)
console.log(`\nTry it: npx vitest run plugins/${name}   ·   npm run typecheck (vitest does not type-check)   ·   npm run build && E2E_PORT=3210 npx playwright test plugins/${name}`)
console.log(`Then say “${tokens.__Phrase__} for tonight” in the chat (npm run dev). The guide: docs/plugins.md`)
