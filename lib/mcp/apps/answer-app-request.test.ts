import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClientIdentity, createAdmission, readJsonBody } from '../../http'
import { answerAppRequest, parseAppBody, type McpAppsApp } from './answer-app-request'
import { createMcpAppsHost } from './mcp-apps-host'
import { basicReactServer, connectStdio, createClientSource } from './testing/app-servers'

let react: Client
let app: McpAppsApp
beforeAll(async () => {
  react = await connectStdio(basicReactServer())
  app = {
    identity: createClientIdentity({ secret: 'i'.repeat(32) }),
    host: createMcpAppsHost({ source: createClientSource({ 'basic-react': react }), secret: 't'.repeat(32) }),
  }
})
afterAll(async () => {
  await react?.close()
})

const openSchema = z.strictObject({ server: z.string().min(1), tool: z.string().min(1) })

/** What `POST /api/mcp-apps/frames` does, through the shared part under test. */
function open(request: Request, over: Partial<McpAppsApp> = {}) {
  return answerAppRequest({
    request,
    app: { ...app, ...over },
    async handle({ host, asker }) {
      const body = parseAppBody(openSchema, await readJsonBody(request))
      return Response.json(await host.openApp({ ...asker, ...body }))
    },
  })
}

function post(body: unknown, headers: Record<string, string> = {}) {
  return new Request('http://localhost/api/mcp-apps/frames', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function refusal(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string } }).error }
}

describe('the MCP Apps routes shared part', () => {
  it('opens an app for a new browser, giving it its identity cookie', async () => {
    const response = await open(post({ server: 'basic-react', tool: 'get-time' }, { 'sec-fetch-site': 'same-origin' }))
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toMatch(/^chat_client_id=/)
    expect(await response.json()).toMatchObject({ uri: 'ui://get-time/mcp-app.html' })
  })

  it('refuses a sandboxed document (origin null) and other sites; the user own navigation is fine', async () => {
    expect((await open(post({ server: 'basic-react', tool: 'get-time' }, { 'sec-fetch-site': 'none' }))).status).toBe(200)
    expect(await refusal(await open(post({ server: 'basic-react', tool: 'get-time' }, { origin: 'null' })))).toMatchObject({ status: 403, code: 'forbidden_origin' })
    expect(await refusal(await open(post({ server: 'basic-react', tool: 'get-time' }, { 'sec-fetch-site': 'cross-site' })))).toMatchObject({
      status: 403,
      code: 'forbidden_origin',
    })
  })

  it('answers bad input with 4xx JSON errors', async () => {
    expect(await refusal(await open(post('{not json')))).toMatchObject({ status: 400, code: 'invalid_json' })
    expect(await refusal(await open(post({ server: 'basic-react' })))).toMatchObject({ status: 400, code: 'invalid_request', message: /^tool: / })
    expect(await refusal(await open(post({ server: 'basic-react', tool: 'get-time', extra: 1 })))).toMatchObject({ status: 400, code: 'invalid_request' })
    const plain = new Request('http://localhost/api/mcp-apps/frames', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(await refusal(await open(plain))).toMatchObject({ status: 415, code: 'unsupported_media_type' })
  })

  it('says so when no server is configured, and limits the rate with a 429', async () => {
    expect(await refusal(await open(post({ server: 'basic-react', tool: 'get-time' }), { host: undefined }))).toMatchObject({ status: 503, code: 'not_configured' })
    const admission = createAdmission({ burst: 1, perSecond: 0.001, globalBurst: 100, globalPerSecond: 10 })
    expect((await open(post({ server: 'basic-react', tool: 'get-time' }), { admission })).status).toBe(200)
    const limited = await open(post({ server: 'basic-react', tool: 'get-time' }), { admission })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })
})
