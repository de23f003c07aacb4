import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppTicketCodec } from './app-frame-ticket'
import { createMcpAppsHost, type McpAppsHost } from './mcp-apps-host'
import { isMcpAppError } from './mcp-app-error'
import { appFailure } from './testing/app-failure'
import { needsApproval } from '../client/approval-policy'
import { badAppServer, basicReactServer, connectStdio, createClientSource } from './testing/app-servers'

const SECRET = 's'.repeat(32)
let react: Client
let bad: Client
let host: McpAppsHost

beforeAll(async () => {
  ;[react, bad] = await Promise.all([connectStdio(basicReactServer()), connectStdio(badAppServer())])
  host = createMcpAppsHost({ source: createClientSource({ 'basic-react': react, bad }), secret: SECRET })
})
afterAll(async () => {
  await Promise.all([react?.close(), bad?.close()])
})

describe('MCP Apps host, against server-basic-react over stdio', () => {
  it('opens get-time: its ui:// resource, a frame served under its own sandboxing policy', async () => {
    const app = await host.openApp({ clientId: 'alice', server: 'basic-react', tool: 'get-time' })
    expect(app.uri).toBe('ui://get-time/mcp-app.html')
    expect(app.csp).toEqual({})
    expect(app.src).toMatch(/^\/api\/mcp-apps\/frame\/[\w-]+\.[\w-]{43}$/)

    const response = await host.serveFrame({ clientId: 'alice', ticket: app.src.split('/').at(-1)! })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const policy = response.headers.get('content-security-policy')!
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining(['sandbox allow-scripts allow-forms', "default-src 'none'", "connect-src 'none'", "frame-ancestors 'self'"]),
    )
    expect(policy).not.toContain("'self' ")
    expect(policy).not.toMatch(/allow-same-origin/)
    const html = await response.text()
    expect(html).toContain('<div id="root">')
    expect(html.length).toBeGreaterThan(100_000)
  })

  it('serves the frame only to the browser that opened it, and only with a frame ticket', async () => {
    const app = await host.openApp({ clientId: 'alice', server: 'basic-react', tool: 'get-time' })
    const ticket = app.src.split('/').at(-1)!
    expect(await appFailure(host.serveFrame({ clientId: 'mallory', ticket }))).toMatchObject({ code: 'unknown_frame', status: 404 })
    expect(await appFailure(host.serveFrame({ clientId: 'alice', ticket: app.bridgeTicket }))).toMatchObject({ code: 'unknown_frame' })
    const forged = `${ticket.split('.')[0]}.${'A'.repeat(43)}`
    expect(await appFailure(host.serveFrame({ clientId: 'alice', ticket: forged }))).toMatchObject({ code: 'unknown_frame' })
    expect(await appFailure(host.serveFrame({ clientId: 'alice', ticket: 'not-a-ticket' }))).toMatchObject({ code: 'unknown_frame' })
  })

  it('calls tools of the app own server for it, with the bridge ticket of the same browser only', async () => {
    const app = await host.openApp({ clientId: 'alice', server: 'basic-react', tool: 'get-time' })
    const result = await host.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'get-time', arguments: {} })
    const text = (result.content[0] as { text: string }).text
    expect(Math.abs(Date.parse(text) - Date.now())).toBeLessThan(60_000)

    expect(await appFailure(host.callTool({ clientId: 'mallory', bridgeTicket: app.bridgeTicket, name: 'get-time', arguments: {} }))).toMatchObject({
      code: 'unknown_frame',
    })
    // The frame ticket is in the iframe's URL, readable by the app: it calls nothing.
    const frameTicket = app.src.split('/').at(-1)!
    expect(await appFailure(host.callTool({ clientId: 'alice', bridgeTicket: frameTicket, name: 'get-time', arguments: {} }))).toMatchObject({
      code: 'unknown_frame',
    })
    // Another server's tools are out of reach: the server comes from the ticket, not the request.
    expect(await appFailure(host.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'plain', arguments: {} }))).toMatchObject({
      code: 'tool_not_allowed',
      status: 403,
    })
  })

  it('refuses a tool without an app, and an unknown tool or server', async () => {
    expect(await appFailure(host.openApp({ clientId: 'alice', server: 'bad', tool: 'plain' }))).toMatchObject({ code: 'no_app', status: 404 })
    expect(await appFailure(host.openApp({ clientId: 'alice', server: 'bad', tool: 'nope' }))).toMatchObject({ code: 'no_app' })
    expect(await appFailure(host.openApp({ clientId: 'alice', server: 'nowhere', tool: 'get-time' }))).toMatchObject({ code: 'server_unavailable', status: 503 })
  })

  it('an expired ticket is refused', async () => {
    let now = Date.now()
    const tickets = createAppTicketCodec({ secret: SECRET, ttlMs: 1_000, now: () => now })
    const short = createMcpAppsHost({ source: createClientSource({ 'basic-react': react }), secret: SECRET, tickets })
    const app = await short.openApp({ clientId: 'alice', server: 'basic-react', tool: 'get-time' })
    now += 1_001
    expect(await appFailure(short.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'get-time', arguments: {} }))).toMatchObject({
      code: 'unknown_frame',
    })
  })
})

describe('MCP Apps host, against a server with broken apps', () => {
  it.each([
    ['wrong-mime', 'invalid_app_resource', /"text\/html", not "text\/html;profile=mcp-app"/],
    ['no-entry', 'invalid_app_resource', /no content entry for ui:\/\/bad\/no-entry/],
    ['huge', 'app_resource_too_large', /5\.0 MiB; at most 4 MiB/],
    ['bad-csp', 'invalid_app_resource', /_meta\.ui\.csp\.connectDomains\.0 is not usable/],
  ])('%s: a clear error, status 502', async (tool, code, message) => {
    const error = await appFailure(host.openApp({ clientId: 'alice', server: 'bad', tool }))
    expect(error).toMatchObject({ code, status: 502 })
    expect(error.message).toMatch(message)
  })

  it('applies what the resource declares: its domains, and only those', async () => {
    const app = await host.openApp({ clientId: 'alice', server: 'bad', tool: 'declared' })
    expect(app).toMatchObject({ csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
    const response = await host.serveFrame({ clientId: 'alice', ticket: app.src.split('/').at(-1)! })
    expect(await response.text()).toBe('<p>from a blob</p>')
    const policy = response.headers.get('content-security-policy')!.split('; ')
    expect(policy).toContain('connect-src https://api.example.com')
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example.com")
    expect(policy).toContain("frame-src 'none'")
  })

  it('an app’s call of a tool that may change things waits for the person, as the model’s would; a read-only one does not', async () => {
    const asking = createMcpAppsHost({
      source: { ...createClientSource({ bad }), needsApproval: ({ tool }) => needsApproval({ policy: 'write', tool }) },
      secret: SECRET,
    })
    const app = await asking.openApp({ clientId: 'alice', server: 'bad', tool: 'declared' })
    const refused = await asking.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'plain', arguments: {} }).catch((error: unknown) => error)
    if (!isMcpAppError(refused)) throw new Error(`expected an McpAppError, got ${String(refused)}`)
    // What the chat page shows the person, from the error body.
    const body = await refused.toResponse().json()
    expect({ status: refused.status, body }).toEqual({
      status: 428,
      body: { error: { code: 'approval_required', message: expect.stringContaining('plain'), tool: { name: 'plain', description: 'No app.' } } },
    })
    const approved = await asking.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'plain', arguments: {}, approved: true })
    expect(approved.content).toEqual([{ type: 'text', text: 'plain' }])
    const read = await asking.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'peek', arguments: {} })
    expect(read.content).toEqual([{ type: 'text', text: 'peeked' }])
  })

  it('an app may not call a tool its server hides from apps', async () => {
    const app = await host.openApp({ clientId: 'alice', server: 'bad', tool: 'declared' })
    expect(await appFailure(host.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'model-only', arguments: {} }))).toMatchObject({
      code: 'tool_not_allowed',
    })
    const result = await host.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'plain', arguments: {} })
    expect(result.content).toEqual([{ type: 'text', text: 'plain' }])
  })
})
