import { test, expect } from '@playwright/test'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../lib/testing/oauth-authorization-server'
import { freePort } from '../lib/testing/server-process'
import { InspectorPage } from './pages/inspector-page'
import { startApp, type AppProcess } from './support/app-process'
import { startInspector, type InspectorProcess } from './support/inspector-process'
import { signInAtProvider } from './support/sign-in'

// Our /api/mcp as an OAuth protected resource (MCP_AUTH_ISSUER, APP_URL), as MCP Inspector
// 2.12.0's web client meets it: a real authorization server (oidc-provider, in this process on a
// free port, with dynamic registration, PKCE, resource indicators and JWT access tokens) in front
// of the production app. Inspector finds the server's 401, discovers the authorization server,
// registers itself, sends the browser through the provider's own login and consent pages, and
// books a flight with the token; booking needs the scope `tools:book_flight`.

const SERVER = 'elicit-chat-oauth'
/** The same URL, on 2026-07-28: Inspector keeps OAuth state per server URL, so it uses the token the first entry got. */
const SERVER_2026 = 'elicit-chat-oauth-2026'
const SCOPES = ['tools:book_flight']

let authServer: TestAuthorizationServer
let app: AppProcess
let inspectorProcess: InspectorProcess

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  // The first run downloads Inspector and Node 22 from the npm registry.
  test.setTimeout(300_000)
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  authServer = await startTestAuthorizationServer({ resource: `${appUrl}/api/mcp`, scopes: SCOPES })
  app = await startApp({ port, env: { APP_URL: appUrl, MCP_AUTH_ISSUER: authServer.issuer, MCP_AUTH_SCOPES: SCOPES.join(' ') } })
  const url = `${app.url}/api/mcp`
  inspectorProcess = await startInspector({ servers: { [SERVER]: { url }, [SERVER_2026]: { url, protocolEra: 'modern' } } })
})

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return
  await testInfo.attach('inspector output', { body: inspectorProcess.output(), contentType: 'text/plain' })
  await testInfo.attach('server output', { body: app.output(), contentType: 'text/plain' })
})

test.afterAll(async () => {
  await inspectorProcess?.stop()
  await app?.kill()
  await authServer?.stop()
})

/** book_flight from NYC to LAX in Inspector: our FlightList and SeatPicker answered in its app-rendered questions, the travel tip by hand; a ticket for the seat picked. */
async function bookFlight(inspector: InspectorPage) {
  await inspector.callTool('book_flight', { from: 'NYC', destination: 'LAX' })
  const flights = inspector.app().getByRole('region', { name: 'Flights from NYC to LAX' })
  await expect(flights).toBeVisible()
  await inspector.pickJetStreamFlight()
  await inspector.finishBooking(await inspector.pickFreeSeat())
}

test('Inspector runs its OAuth flow against /api/mcp through the provider\'s login and consent, connects, and books a flight with the token', async ({ page }, testInfo) => {
  const inspector = new InspectorPage(page, inspectorProcess.url)
  // Without a token the server says where its authorization server is; nothing else is open.
  const refused = await fetch(`${app.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })
  expect(refused.status).toBe(401)
  expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/mcp"`)

  await inspector.open()
  await inspector.toggleConnection(SERVER)
  // Inspector sends the browser to the authorization server: its own login, then its consent.
  await page.waitForURL((url) => url.origin === authServer.issuer)
  await page.screenshot({ path: testInfo.outputPath('inspector-oauth-login.png') })
  await signInAtProvider(page, 'alice')
  // Back at Inspector's callback, which finishes the flow and connects.
  await page.waitForURL((url) => url.origin === new URL(inspectorProcess.url).origin)
  expect(await inspector.connected(SERVER)).toBe('MCP 2025-11-25')
  await expect(page.getByText('Authorization complete')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('inspector-oauth-connected.png') })

  await bookFlight(inspector)
  // No access token (a JWT) in anything the server printed.
  expect(app.output()).not.toMatch(/eyJ[\w-]*\.eyJ[\w-]*\./)
})

test("on 2026-07-28 too: an entry of the same URL connects with the token Inspector holds for it, no sign-in again, and books", async ({ page }) => {
  const inspector = new InspectorPage(page, inspectorProcess.url)
  await inspector.open()
  expect(await inspector.connect(SERVER_2026)).toBe('MCP 2026-07-28')
  expect(new URL(page.url()).origin).toBe(new URL(inspectorProcess.url).origin)
  await bookFlight(inspector)
  expect(app.output()).not.toMatch(/eyJ[\w-]*\.eyJ[\w-]*\./)
})
