// An esbuild plugin for app bundles: Zod schemas defined at a module's top level are marked pure,
// so a schema the app never uses is dropped, and Zod with it. A question component often imports
// a helper from a module that also defines the tool's schemas (`cardName` beside `cardSchema`);
// esbuild keeps every top-level call, since it cannot know a call has no side effects, and a
// kept `z.object(...)` brings all of Zod (~50 KB gzip) into an app that never validates anything.
// Only declarations whose value is a call chain rooted in Zod (or in a schema so marked) change.
import { readFile } from 'node:fs/promises'
import ts from 'typescript'

const IMPORTS_ZOD = /\bfrom\s+['"]zod(?:\/[^'"]*)?['"]/

export const pureSchemas = {
  name: 'pure-schemas',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined
      const source = await readFile(path, 'utf8')
      if (!IMPORTS_ZOD.test(source)) return undefined
      const loader = /\.[cm]?tsx$/.test(path) ? 'tsx' : /\.[cm]?ts$/.test(path) ? 'ts' : /\.jsx$/.test(path) ? 'jsx' : 'js'
      return { contents: markSchemasPure(source, path), loader }
    })
  },
}

/** `source` with each top-level Zod schema's initializer wrapped as `/* @__PURE__ *\/ (() => …)()`. */
export function markSchemasPure(source, fileName) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const roots = new Set()
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !/^zod(\/|$)/.test(statement.moduleSpecifier.text) || statement.importClause?.isTypeOnly) continue
    const clause = statement.importClause
    if (clause?.name) roots.add(clause.name.text)
    const bindings = clause?.namedBindings
    if (bindings && ts.isNamespaceImport(bindings)) roots.add(bindings.name.text)
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) roots.add(element.name.text)
  }
  const wraps = []
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer
      if (!value || !ts.isCallExpression(value) || !roots.has(rootName(value))) continue
      wraps.push({ start: value.getStart(file), end: value.getEnd() })
      if (ts.isIdentifier(declaration.name)) roots.add(declaration.name.text)
    }
  }
  let result = source
  for (const { start, end } of wraps.reverse()) {
    result = `${result.slice(0, start)}/* @__PURE__ */ (() => ${result.slice(start, end)})()${result.slice(end)}`
  }
  return result
}

/** The identifier a chain such as `z.object({...}).strict()` starts from. */
function rootName(expression) {
  let node = expression
  while (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node) || ts.isNonNullExpression(node)) node = node.expression
  return ts.isIdentifier(node) ? node.text : undefined
}
