// Which questions are answered by a component, read from the plugin list itself (a module that
// exports `pluginUis` like plugins/browser.ts), so the build never keeps a list of its own: the
// list is bundled for Node with each plugin's browser half in its own chunk, each plugin is
// loaded as the chat loads it, and its registration's `components` name the keys. The chunk that
// exported the registration gives the module and export to bundle each app from.
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'

/**
 * @param {{ root: string, pluginList: string, cacheDir: string }} options
 *   `pluginList` relative to `root`; `cacheDir` must be inside `root` (its chunks import node_modules).
 * @returns {Promise<Array<{ tool: string, key: string, module: string, exportName: string }>>}
 */
export async function discoverQuestionComponents({ root, pluginList, cacheDir }) {
  rmSync(cacheDir, { recursive: true, force: true })
  const { metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [pluginList],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    jsx: 'automatic',
    outdir: cacheDir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'error',
  })
  const outputs = Object.entries(metafile.outputs).filter(([, output]) => output.entryPoint)
  const entry = outputs.find(([, output]) => output.entryPoint === pluginList)
  if (!entry) throw new Error(`build-mcp-apps: no output for ${pluginList}`)
  const list = await import(pathToFileURL(path.resolve(root, entry[0])).href)
  if (!Array.isArray(list.pluginUis)) throw new Error(`build-mcp-apps: ${pluginList} does not export pluginUis`)

  // The plugins' own chunks (each a dynamic import of the list), with their exports.
  const chunks = await Promise.all(
    outputs
      .filter(([, output]) => output.entryPoint !== pluginList)
      .map(async ([file, output]) => ({ module: output.entryPoint, exports: await import(pathToFileURL(path.resolve(root, file)).href) })),
  )
  const found = []
  for (const source of list.pluginUis) {
    const registration = 'load' in source ? await source.load() : source
    const components = registration.components ?? {}
    const keys = Object.keys(components)
    if (keys.length === 0) continue
    const owner = chunks.flatMap(({ module, exports }) => Object.entries(exports).filter(([, value]) => value === registration).map(([exportName]) => ({ module, exportName })))[0]
    if (!owner) throw new Error(`build-mcp-apps: ${registration.toolName}'s registration is not a named export of a module ${pluginList} imports`)
    for (const key of keys) {
      if (!components[key]) throw new Error(`build-mcp-apps: ${registration.toolName} registers no component for ${key}`)
      found.push({ tool: registration.toolName, key, module: owner.module, exportName: owner.exportName })
    }
  }
  return found
}
