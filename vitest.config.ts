import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['{lib,plugins,app,components,scripts}/**/*.test.{ts,tsx}'],
    environment: 'node',
    typecheck: { enabled: true, include: ['{lib,plugins}/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
  },
})
