// An esbuild plugin for app bundles: effection's modules are marked free of side effects, as its
// package.json declares (`"sideEffects": false`). esbuild reads that field from the package.json
// nearest each file, and effection's `esm/package.json` (only `"type": "module"`) hides it, so
// every effection module an app's imports reach was kept whole (about 14 KB of a 52 KB script)
// though an app never runs an operation. With the declaration restored, what is unused is dropped.
const PACKAGES = ['effection']

export const declaredSideEffects = {
  name: 'declared-side-effects',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.declaredSideEffects) return undefined
      const inPackage = PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`) || args.importer.includes(`/node_modules/${name}/`))
      if (!inPackage) return undefined
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { declaredSideEffects: true } })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      return { ...resolved, sideEffects: false }
    })
  },
}
