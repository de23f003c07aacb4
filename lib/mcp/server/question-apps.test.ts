import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BUILD_FIXTURE_APPS_TIMEOUT_MS, buildFixtureApps, type BuiltApps } from '../apps/testing/build-fixture-apps'
import { paintPosterTool } from '../apps/testing/question-fixture/tool'
import { createOfflineModel } from '../../models'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { readQuestionApps, type QuestionApps } from './question-apps'
import { serveFetch } from './testing/serve-fetch'

// The server side of app-rendered elicitations (SEP-3118), on the fixture plugin's apps as
// `scripts/build-mcp-apps.mjs` builds them: advertised, listed and read in both eras.
const UI = 'io.modelcontextprotocol/ui'
const MIME = 'text/html;profile=mcp-app'
const COLOUR = 'ui://paint_poster/pickColour'
const SIZE = 'ui://paint_poster/pickSize'

let built: BuiltApps
let apps: QuestionApps
beforeAll(() => {
  built = buildFixtureApps()
  apps = readQuestionApps(built.directory)
}, BUILD_FIXTURE_APPS_TIMEOUT_MS)
afterAll(() => built?.remove())

const running: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close()
})

async function serve(questionApps?: QuestionApps, tools = [paintPosterTool]): Promise<URL> {
  const endpoint: McpEndpoint = await createMcpEndpoint({ tools, model: createOfflineModel(), stateSecret: 'q'.repeat(32), questionApps })
  const served = await serveFetch((request) => endpoint.handle(request))
  running.push(() => endpoint.close(), () => served.close())
  return served.url
}

async function connect(url: URL, era: '2025' | '2026'): Promise<Client> {
  const client = new Client(
    { name: 'apps-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME], elicitation: {} } } },
      ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  )
  await client.connect(new StreamableHTTPClientTransport(url))
  running.push(() => client.close())
  return client
}

describe.each(['2025', '2026'] as const)('question apps, official v2 client, %s era', (era) => {
  it('advertises app-rendered elicitations, lists each app and reads it as text/html;profile=mcp-app', async () => {
    const client = await connect(await serve(apps), era)
    expect(client.getProtocolEra()).toBe(era === '2026' ? 'modern' : 'legacy')
    expect(client.getServerCapabilities()?.extensions?.[UI]).toEqual({ elicitation: {} })
    if (era === '2026') expect(client.getDiscoverResult()?.capabilities.extensions?.[UI]).toEqual({ elicitation: {} })

    const { resources } = await client.listResources()
    expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual([
      { uri: COLOUR, mimeType: MIME },
      { uri: SIZE, mimeType: MIME },
    ])
    expect(resources[0]).toMatchObject({ name: 'paint_poster-pickColour', _meta: { ui: { prefersBorder: false } } })

    const read = await client.readResource({ uri: SIZE })
    expect(read.contents).toHaveLength(1)
    const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string; _meta?: unknown }>
    expect(content).toMatchObject({ uri: SIZE, mimeType: MIME, _meta: { ui: { prefersBorder: false } } })
    expect(content!.text).toBe(built.html('paint_poster/pickSize.html'))
  })

  it('answers an unknown ui:// URI with a resource-not-found error naming it', async () => {
    const client = await connect(await serve(apps), era)
    await expect(client.readResource({ uri: 'ui://paint_poster/pickShape' })).rejects.toThrow('Resource not found: ui://paint_poster/pickShape')
    await expect(client.readResource({ uri: 'ui://book_flight/pickSeat' })).rejects.toThrow('Resource not found: ui://book_flight/pickSeat')
  })

  it('without apps: advertises no extension and lists no resources', async () => {
    const client = await connect(await serve(undefined), era)
    expect(client.getServerCapabilities()?.extensions).toBeUndefined()
    expect(client.getServerCapabilities()?.resources).toBeUndefined()
  })
})

describe('question apps, official v1 client (1.32, 2025-11-25)', () => {
  it('advertises the extension, lists and reads the apps', async () => {
    const url = await serve(apps)
    const client = new V1Client(
      { name: 'apps-v1', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME], elicitation: {} } } } as never },
    )
    await client.connect(new V1Transport(url))
    running.push(() => client.close())
    expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[UI]).toEqual({ elicitation: {} })
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual([COLOUR, SIZE])
    const read = await client.readResource({ uri: COLOUR })
    expect(read.contents[0]).toMatchObject({ uri: COLOUR, mimeType: MIME, text: built.html('paint_poster/pickColour.html') })
  })
})

describe('which apps a server serves', () => {
  it('only apps of questions it asks: a tool it does not serve, or a key its tool does not ask, is left out', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'question-apps-'))
    try {
      mkdirSync(path.join(directory, 'x'))
      for (const file of ['x/a.html', 'x/b.html']) writeFileSync(path.join(directory, file), '<!doctype html>')
      writeFileSync(
        path.join(directory, 'manifest.json'),
        JSON.stringify({
          apps: [
            { tool: 'paint_poster', key: 'pickColour', uri: COLOUR, file: 'x/a.html' },
            { tool: 'paint_poster', key: 'pickFrame', uri: 'ui://paint_poster/pickFrame', file: 'x/b.html' },
            { tool: 'other_tool', key: 'pick', uri: 'ui://other_tool/pick', file: 'x/b.html' },
          ],
        }),
      )
      const client = await connect(await serve(readQuestionApps(directory)), '2025')
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([COLOUR])
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it('reads none from a folder without a manifest, and refuses a manifest that names a missing file, naming it', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'question-apps-'))
    try {
      expect(readQuestionApps(directory).apps).toEqual([])
      writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify({ apps: [{ tool: 't', key: 'k', uri: 'ui://t/k', file: 't/k.html' }] }))
      expect(() => readQuestionApps(directory)).toThrow(`names t/k.html, which is not there`)
      writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify({ apps: [{ tool: 't', key: 'k', uri: 'ui://t/k', file: '../k.html' }] }))
      expect(() => readQuestionApps(directory)).toThrow('names ../k.html, outside its folder')
      writeFileSync(path.join(directory, 'manifest.json'), '{ "apps": 1 }')
      expect(() => readQuestionApps(directory)).toThrow(/manifest\.json is not a question apps manifest/)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it('knows each question app by tool and key', () => {
    expect(apps.uriFor('paint_poster', 'pickSize')).toBe(SIZE)
    expect(apps.uriFor('paint_poster', 'pickFrame')).toBeUndefined()
  })
})
