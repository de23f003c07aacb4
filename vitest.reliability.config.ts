import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

// `npm run test:reliability`: against the production build (`npm run build` first), one part
// after another (each measures memory or latency, so none runs beside another).
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['reliability/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    // A `.only` left in a file fails that test rather than silently narrowing the run, in CI or not.
    allowOnly: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
})
