import { propagation, ROOT_CONTEXT, trace, type Attributes, type Context } from '@opentelemetry/api'

/**
 * MCP spans by the OpenTelemetry GenAI conventions' MCP section, for both ends: the app's
 * `/api/mcp` (server spans, `server/traced-endpoint.ts`) and the chat's calls to external MCP
 * servers (client spans, `client/traced-transport.ts`). A span per JSON-RPC request, named
 * `{mcp.method.name} {target}` (the tool's name for `tools/call`, the prompt's for `prompts/get`),
 * and the trace context carried in the request's `params._meta` (`traceparent`, `tracestate`),
 * as the conventions ask while MCP defines no header of its own.
 */

/** A JSON-RPC request as the spans read it: a method, an id, and the params they name. */
export interface McpRequestMessage {
  jsonrpc?: string
  method: string
  id?: string | number
  params?: { name?: unknown; protocolVersion?: unknown; _meta?: Record<string, unknown> } & Record<string, unknown>
}

/** Whether `message` is a JSON-RPC request or notification (it has a method): what gets a span. */
export function isMcpRequest(message: unknown): message is McpRequestMessage {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && typeof (message as { method?: unknown }).method === 'string'
}

/** The method and, where the conventions name one, its low-cardinality target. */
function targetOf(message: McpRequestMessage): string | undefined {
  const name = message.params?.name
  return (message.method === 'tools/call' || message.method === 'prompts/get') && typeof name === 'string' ? name : undefined
}

export function mcpSpanName(message: McpRequestMessage): string {
  const target = targetOf(message)
  return target ? `${message.method} ${target}` : message.method
}

/** What both ends know of a request: `mcp.method.name`, `jsonrpc.request.id`, the session and the protocol's version when known, the tool. */
export function mcpAttributes(
  message: McpRequestMessage,
  { sessionId, protocolVersion, transport }: { sessionId?: string; protocolVersion?: string; transport: 'tcp' | 'pipe' },
): Attributes {
  const version = protocolVersion ?? (message.method === 'initialize' && typeof message.params?.protocolVersion === 'string' ? message.params.protocolVersion : undefined)
  const tool = message.method === 'tools/call' ? targetOf(message) : undefined
  return {
    'mcp.method.name': message.method,
    'jsonrpc.protocol.version': message.jsonrpc ?? '2.0',
    ...(message.id !== undefined ? { 'jsonrpc.request.id': String(message.id) } : {}),
    ...(sessionId ? { 'mcp.session.id': sessionId } : {}),
    ...(version ? { 'mcp.protocol.version': version } : {}),
    ...(tool ? { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' } : {}),
    'network.transport': transport,
    ...(transport === 'tcp' ? { 'network.protocol.name': 'http' } : {}),
  }
}

/** The trace context a request carries in `params._meta`, if it carries a valid one. */
export function traceContextInMeta(message: McpRequestMessage): Context | undefined {
  const meta = message.params?._meta
  if (typeof meta !== 'object' || meta === null || typeof meta.traceparent !== 'string') return undefined
  const carried = propagation.extract(ROOT_CONTEXT, meta)
  return trace.getSpanContext(carried) ? carried : undefined
}

/** `message` with `context`'s span in its `params._meta` (`traceparent`, and `tracestate` when there is one); the rest of `_meta` kept. */
export function withTraceContextInMeta<T extends McpRequestMessage>(message: T, context: Context): T {
  const carrier: Record<string, string> = {}
  propagation.inject(context, carrier)
  if (!carrier.traceparent) return message
  return { ...message, params: { ...message.params, _meta: { ...message.params?._meta, ...carrier } } }
}
