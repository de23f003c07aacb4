import { configDefaults, defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // As in Next's own server builds (and its Jest preset): the marker of a server half is
      // empty wherever server code runs; only a browser bundle that imports it fails.
      'server-only': fileURLToPath(new URL('./node_modules/next/dist/compiled/server-only/empty.js', import.meta.url)),
    },
  },
  test: {
    include: ['{lib,plugins,app,components,scripts}/**/*.test.{ts,tsx}'],
    // Test files that fail on purpose, run one at a time by scripts/test-counts.test.ts.
    exclude: [...configDefaults.exclude, 'scripts/fixtures/**'],
    // A `.only` left in a file fails that test rather than silently narrowing the run, in CI or not.
    allowOnly: false,
    environment: 'node',
    typecheck: { enabled: true, include: ['{lib,plugins}/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
  },
})
