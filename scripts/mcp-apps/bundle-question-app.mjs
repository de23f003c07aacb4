// One question's MCP App as a single HTML document: the app runtime and the plugin's component
// bundled by esbuild into one inline script (rendered by preact/compat: React 19's react-dom
// alone is ~67 KB gzip, more than an app may weigh), and Tailwind compiled from the bundled
// source files only, its `dark:` variants keyed on the host's theme. Nothing is loaded from
// anywhere: the document works under a CSP without network, eval or external sources.
// A small inline script first, at the top of the document, begins the handshake with the host
// (lib/mcp/apps/question-app/handshake.ts), so that the host answers and forwards the question
// while the browser parses and runs the bundle, which then takes the handshake over.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'
import postcss from 'postcss'
import tailwindcss from 'tailwindcss'
import { declaredSideEffects } from './declared-side-effects.mjs'
import { pureSchemas } from './pure-schemas.mjs'

/** The app runtime every question app starts (lib/mcp/apps/question-app). */
const RUNTIME = 'lib/mcp/apps/question-app/start-question-app.tsx'
/** Its handshake, begun by the document's first script and taken over by the runtime's. */
const HANDSHAKE = 'lib/mcp/apps/question-app/handshake.ts'
const TARGET = ['chrome111', 'firefox111', 'safari16.4']

/**
 * The app's own base look: the host's MCP Apps variables, with fallbacks of their own. The page
 * takes the host's background, so the frame blends into the host's surface (a dark document in
 * a light frame would otherwise paint the browser's own dark canvas around the component).
 */
const BASE_CSS = `
html { color-scheme: light; background: var(--color-background-primary, transparent); }
html[data-theme="dark"] { color-scheme: dark; }
body {
  margin: 0;
  padding: 2px;
  color: var(--color-text-primary, #18181b);
  font-family: var(--font-sans, ui-sans-serif, system-ui, sans-serif);
}
html[data-theme="dark"] body { color: var(--color-text-primary, #fafafa); }
`

/**
 * @param {{ root: string, tool: string, key: string, module: string, exportName: string, tailwindConfig: object }} options
 * @returns {Promise<string>} the HTML document
 */
export async function bundleQuestionApp({ root, tool, key, module, exportName, tailwindConfig }) {
  const question = `tool: ${JSON.stringify(tool)}, key: ${JSON.stringify(key)}`
  const handshake = await bundleScript(root, `${tool}-${key}.handshake.ts`, [
    `import { beginHandshake, handOver } from ${JSON.stringify(`./${HANDSHAKE}`)}`,
    `handOver(beginHandshake({ ${question} }))`,
  ])
  const { script, metafile } = await bundleScript(root, `${tool}-${key}.app.tsx`, [
    `import { takeHandshake } from ${JSON.stringify(`./${HANDSHAKE}`)}`,
    `import { startQuestionApp } from ${JSON.stringify(`./${RUNTIME}`)}`,
    `import { ${exportName} as registration } from ${JSON.stringify(`./${module}`)}`,
    `void startQuestionApp({ ${question}, component: registration.components[${JSON.stringify(key)}], handshake: takeHandshake() })`,
  ])
  // Tailwind sees exactly the project files in this bundle: only the classes they use are compiled.
  const sources = Object.keys(metafile.inputs)
    .filter((input) => !input.includes('node_modules') && /\.(tsx?|jsx?)$/.test(input))
    .map((input) => path.resolve(root, input))
  const compiled = await postcss([
    tailwindcss({ ...tailwindConfig, content: sources, darkMode: ['selector', '[data-theme="dark"]'] }),
  ]).process(`@tailwind base;\n@tailwind components;\n@tailwind utilities;\n${BASE_CSS}`, { from: undefined })
  const { code: styles } = await esbuild.transform(compiled.css, { loader: 'css', minify: true, target: TARGET })

  // Inline text must not end its own element early.
  for (const text of [handshake.script, script]) if (/<\/script/i.test(text)) throw new Error(`build-mcp-apps: ${tool}/${key}'s script contains "</script"`)
  if (/<\/style/i.test(styles)) throw new Error(`build-mcp-apps: ${tool}/${key}'s styles contain "</style"`)
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${tool} · ${key}`)}</title>`,
    `<script>${handshake.script}</script>`,
    `<style>${styles}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

/** One inline script: `lines` as the entry, bundled for the browser (React as preact/compat), minified; and its metafile. */
async function bundleScript(root, sourcefile, lines) {
  const { outputFiles, metafile } = await esbuild.build({
    absWorkingDir: root,
    stdin: { contents: lines.join('\n'), resolveDir: root, sourcefile, loader: 'tsx' },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    jsx: 'automatic',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    // Node built-ins a shared dependency may import lazily for Node only (effection's `main`): never loaded in an app.
    external: ['node:*'],
    plugins: [pureSchemas, declaredSideEffects],
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'error',
  })
  return { script: outputFiles[0].text, metafile }
}

/** The project's Tailwind config (tailwind.config.ts), so an app's classes mean what they mean in the chat. */
export async function loadTailwindConfig({ root, cacheDir }) {
  const outfile = path.join(cacheDir, 'tailwind.config.mjs')
  await esbuild.build({ absWorkingDir: root, entryPoints: ['tailwind.config.ts'], bundle: true, format: 'esm', platform: 'node', packages: 'external', outfile, logLevel: 'error' })
  return (await import(`${pathToFileURL(outfile).href}?${Date.now()}`)).default
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char])
}
