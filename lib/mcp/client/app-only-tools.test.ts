import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { eventsOf, textOf } from '../../engine/testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from '../../engine/testing/scripted-chat'
import type { ChatCompletionRequestBody } from '../../models/testing/openai-compatible-server'
import { createMcpAppsHost } from '../apps/mcp-apps-host'
import { badAppServer } from '../apps/testing/app-servers'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import type { McpClients } from './use-mcp-clients'

// `bad-apps` lists `app-only` (`_meta.ui.visibility: ["app"]`) beside `plain` (no visibility: both).
const APP_ONLY = 'bad__app-only'
const PLAIN = 'bad__plain'

let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const started = await startMcpClients({
    config: { servers: [{ name: 'bad', transport: 'stdio', env: {}, ...badAppServer() }], invalid: [] },
    timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 200 },
  })
  clients = started.clients
  closeClients = started.close
  await vi.waitFor(() => expect(clients.tools().map((tool) => tool.name)).toContain(APP_ONLY), { timeout: 20_000, interval: 50 })
}, 30_000)
afterAll(async () => {
  await closeClients?.()
})

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

/** A chat whose model names `toolName` in its first step, and says what the result was after. */
async function chatWhoseModelCalls(toolName: string) {
  const offered: string[][] = []
  scripted = await startScriptedChat({
    tools: [],
    externalTools: createServerToolSource({ clients }),
    respond(body: ChatCompletionRequestBody) {
      offered.push((body.tools ?? []).map((tool) => tool.function.name))
      const last = body.messages.at(-1)!
      if (last.role === 'tool') return { text: `Saw: ${String(last.content)}` }
      return { toolCalls: [{ id: 'call_0', name: toolName, arguments: {} }] }
    },
  })
  return { ...scripted, offered }
}

describe('app-only tools (_meta.ui.visibility without "model")', { timeout: 30_000 }, () => {
  it('are listed and marked appOnly, but never offered to the model', async () => {
    const { chat, client, offered } = await chatWhoseModelCalls(PLAIN)
    const listed = chat.listTools()
    expect(listed).toContainEqual({ name: APP_ONLY, description: 'Polled by its app.', source: 'mcp:bad', appOnly: true })
    expect(listed.find((tool) => tool.name === PLAIN)).not.toHaveProperty('appOnly')

    await client.say('go')
    expect(offered[0]).toContain(PLAIN)
    expect(offered[0]).not.toContain(APP_ONLY)
  })

  it('a model that names one anyway gets a tool error, and the server is not called', async () => {
    const { client } = await chatWhoseModelCalls(APP_ONLY)
    const turn = await client.say('poll')
    expect(eventsOf(turn.events, 'tool_result')).toEqual([])
    expect(eventsOf(turn.events, 'tool_error')[0]).toMatchObject({ name: APP_ONLY, message: `The tool "${APP_ONLY}" is not available: it is only for its MCP App.` })
    expect(textOf(turn.events)).toContain('is not available')
  })

  it('a slash command naming one is refused with a 400, like an unknown tool', async () => {
    const { client } = await chatWhoseModelCalls(PLAIN)
    const turn = await client.post({ messages: [{ role: 'user', content: `/${APP_ONLY}` }], directToolCall: { name: APP_ONLY, arguments: {} } })
    expect(turn.status).toBe(400)
    expect(turn.error).toMatchObject({ code: 'app_only_tool', message: expect.stringContaining('is only for its MCP App') })

    const plain = await client.post({ messages: [{ role: 'user', content: `/${PLAIN}` }], directToolCall: { name: PLAIN, arguments: {} } })
    expect(JSON.parse(eventsOf(plain.events, 'tool_result')[0]!.content)).toEqual({ content: [{ type: 'text', text: 'plain' }] })
  })

  it('an app of the same server still calls it through the MCP Apps host', async () => {
    const host = createMcpAppsHost({
      secret: 's'.repeat(32),
      source: {
        getTool: async ({ server, name }) => clients.getTool(server, name),
        readResource: ({ server, uri, signal }) => clients.readResource(server, uri, { signal }),
        callTool: ({ server, name, arguments: args, signal }) => clients.callTool(server, name, args, { signal }),
      },
    })
    const app = await host.openApp({ clientId: 'alice', server: 'bad', tool: 'declared' })
    const result = await host.callTool({ clientId: 'alice', bridgeTicket: app.bridgeTicket, name: 'app-only', arguments: {} })
    expect(result.content).toEqual([{ type: 'text', text: 'for the app' }])
  })
})
