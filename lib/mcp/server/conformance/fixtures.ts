import { fromJsonSchema, ResourceTemplate, type McpServer, type ServerContext } from '@modelcontextprotocol/server'
import { z } from 'zod'

/** A 1×1 PNG. */
const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** A WAV file of one silent 8-bit sample at 8 kHz. */
const AUDIO = (() => {
  const wav = Buffer.alloc(45)
  wav.write('RIFF', 0)
  wav.writeUInt32LE(37, 4)
  wav.write('WAVEfmt ', 8)
  wav.writeUInt32LE(16, 16)
  wav.writeUInt16LE(1, 20) // PCM
  wav.writeUInt16LE(1, 22) // mono
  wav.writeUInt32LE(8000, 24)
  wav.writeUInt32LE(8000, 28)
  wav.writeUInt16LE(1, 32)
  wav.writeUInt16LE(8, 34)
  wav.write('data', 36)
  wav.writeUInt32LE(1, 40)
  wav.writeUInt8(128, 44)
  return wav.toString('base64')
})()

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })
const noArguments = z.object({})

/**
 * A question asked in the middle of a tool call goes on that call's own stream. Without this,
 * `requestSampling` and `elicitInput` send it to the session's GET stream, which a 2025 client
 * opens without waiting after `initialized`: a call that got there first lost its question and
 * never ended.
 */
const onThisCall = (ctx: ServerContext) => ({ relatedRequestId: ctx.mcpReq.id })

/**
 * The fixtures the official conformance suite calls (`test_*` tools, `test://` resources,
 * `test_*` prompts, as its everything-server has them). Served only with `MCP_CONFORMANCE=1`:
 * they are for the suite, never part of the product's list.
 */
export function registerConformanceFixtures(server: McpServer): void {
  server.server.registerCapabilities({ resources: { subscribe: true }, prompts: {}, completions: {} })

  server.registerTool('test_simple_text', { description: 'Answers with one text block' }, async () =>
    text('This is a simple text response for testing.'),
  )
  server.registerTool('test_image_content', { description: 'Answers with an image' }, async () => ({
    content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }],
  }))
  server.registerTool('test_audio_content', { description: 'Answers with audio' }, async () => ({
    content: [{ type: 'audio', data: AUDIO, mimeType: 'audio/wav' }],
  }))
  server.registerTool('test_embedded_resource', { description: 'Answers with an embedded resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }))
  server.registerTool('test_multiple_content_types', { description: 'Answers with text, an image and a resource' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
      },
    ],
  }))
  server.registerTool('test_tool_with_logging', { description: 'Logs three messages as it runs', inputSchema: noArguments }, async (_args, ctx) => {
    for (const message of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: message } })
    }
    return text('Tool with logging executed successfully')
  })
  server.registerTool('test_tool_with_progress', { description: 'Reports progress as it runs', inputSchema: noArguments }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken ?? 0
    for (const progress of [0, 50, 100]) {
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
      })
    }
    return text(String(progressToken))
  })
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing')
  })
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its stream mid-call; the client reconnects and still gets the result', inputSchema: noArguments },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.()
      // The result is sent after the client had time to reconnect; the event store replays it either way.
      await new Promise((resolve) => setTimeout(resolve, 100))
      return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.')
    },
  )
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client’s model', inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }) },
    async ({ prompt }, ctx: ServerContext) => {
      const result = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }, onThisCall(ctx))
      const block = Array.isArray(result.content) ? result.content[0] : result.content
      return text(`LLM response: ${block?.type === 'text' ? block.text : 'No response'}`)
    },
  )
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user', inputSchema: z.object({ message: z.string().describe('The message to show the user') }) },
    async ({ message }, ctx: ServerContext) => {
      const result = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message,
        requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
      }, onThisCall(ctx))
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)
    },
  )
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'A form with defaults (SEP-1034)', inputSchema: noArguments }, async (_args, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    }, onThisCall(ctx))
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)
  })
  server.registerTool('test_elicitation_sep1330_enums', { description: 'A form with every kind of enum (SEP-1330)', inputSchema: noArguments }, async (_args, ctx) => {
    const options = (prefix: string, titles: string[]) => titles.map((title, index) => ({ const: `${prefix}${index + 1}`, title }))
    const result = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: options('value', ['First Option', 'Second Option', 'Third Option']) },
          legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: { anyOf: options('value', ['First Choice', 'Second Choice', 'Third Choice']) },
          },
        },
        required: [],
      },
    } as never, onThisCall(ctx))
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)
  })
  // A raw JSON Schema, kept as written ($schema, $defs, additionalProperties): registerTool takes it through fromJsonSchema.
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features (SEP-1613)',
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      }),
    },
    async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  )

  server.registerResource('static-text', 'test://static-text', { title: 'Static Text Resource', description: 'A static text resource', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }))
  server.registerResource('static-binary', 'test://static-binary', { title: 'Static Binary Resource', description: 'A PNG image', mimeType: 'image/png' }, async () => ({
    contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: IMAGE }],
  }))
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
    }),
  )
  server.registerResource('watched-resource', 'test://watched-resource', { title: 'Watched Resource', description: 'A resource to subscribe to', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  }))
  const subscriptions = new Set<string>()
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    subscriptions.add(request.params.uri)
    return {}
  })
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscriptions.delete(request.params.uri)
    return {}
  })
  server.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }))

  server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }))
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      argsSchema: z.object({ arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') }),
    },
    async ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  )
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    async ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  )
  server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes an image' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }))
}
