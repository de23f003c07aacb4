import { writeFileSync } from 'node:fs'
import type { TestInfo } from '@playwright/test'
import { startApp, type AppProcess, type StartAppOptions } from './app-process'

/** Server processes a test starts; each is killed when the test ends. */
export interface Apps {
  start(options?: StartAppOptions): Promise<AppProcess>
}

/**
 * A Playwright fixture (`base.extend({ apps: appsFixture })`): every server the test started is
 * killed at its end, and when the test failed each server's output is attached to the report.
 */
export async function appsFixture({}: object, use: (apps: Apps) => Promise<void>, testInfo: TestInfo): Promise<void> {
  const started: AppProcess[] = []
  await use({
    async start(options) {
      const app = await startApp(options)
      started.push(app)
      return app
    },
  })
  await Promise.all(started.map((app) => app.kill()))
  if (testInfo.status === testInfo.expectedStatus) return
  for (const [index, app] of started.entries()) {
    const file = testInfo.outputPath(`server-${index + 1}-port-${app.port}.log`)
    writeFileSync(file, app.output())
    await testInfo.attach(`server ${index + 1} (port ${app.port}) output`, { path: file, contentType: 'text/plain' })
  }
}
