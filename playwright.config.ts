import { defineConfig, devices } from '@playwright/test'
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)

// Playwright's own Chromium when it is installed; otherwise Debian's (no browser download here).
const bundled = chromium.executablePath()
const executablePath = existsSync(bundled) ? undefined : '/usr/bin/chromium'

export default defineConfig({
  // The app's own specs in e2e/, and each plugin's beside its code (plugins/<name>/e2e/).
  testDir: '.',
  testMatch: ['e2e/**/*.spec.ts', 'plugins/*/e2e/**/*.spec.ts'],
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.test-output/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOSTNAME: '127.0.0.1',
      OPENAI_API_KEY: '',
      OFFLINE_MODEL_DELAY_MS: '15',
      EXPOSE_SESSIONS: '1',
      // A store of its own for each run (npm test empties .test-output first).
      DATA_DIR: '.test-output/data',
      // Every spec reaches this one server from 127.0.0.1, far faster than one person would:
      // the limits per address are raised here (e2e/limits.spec.ts checks them on a server of its own).
      RATE_LIMIT_BURST: '1000',
      RATE_LIMIT_PER_SECOND: '100',
      MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '1000',
      TOOL_STARTS_BURST: '1000',
      TOOL_STARTS_PER_MINUTE: '6000',
    },
  },
})
