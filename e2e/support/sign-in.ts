import type { Page } from '@playwright/test'
import type { TestOidcProvider } from '../../lib/testing/oidc-provider'

/**
 * The app's sign-in through the test provider at `appUrl`: everyone at example.com may enter,
 * alice is an admin (the people of `TEST_PEOPLE`: bob is allowed, carol is not).
 */
export function signInEnv(op: TestOidcProvider, appUrl: string): Record<string, string> {
  return {
    APP_URL: appUrl,
    AUTH_OIDC_ISSUER: op.issuer,
    AUTH_OIDC_CLIENT_ID: op.clientId,
    AUTH_OIDC_CLIENT_SECRET: op.clientSecret,
    AUTH_ALLOWED_EMAILS: '@example.com',
    AUTH_ADMIN_EMAILS: 'alice@example.com',
  }
}

/** Signs `login` in on the provider's own pages (any password), from wherever the app sent the browser. */
export async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login)
  await page.getByPlaceholder('and password').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}
