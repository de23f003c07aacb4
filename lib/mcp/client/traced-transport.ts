import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api'
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { isMcpRequest, mcpAttributes, mcpSpanName, withTraceContextInMeta } from '../mcp-spans'

/** The instrumentation scope of the chat's MCP client spans (the server's own spans are `elicit-chat`'s too). */
const TRACER_NAME = 'elicit-chat'

/**
 * `transport` (the same object, so what it is stays known) with a client span per request it
 * sends within a traced piece of work, by the conventions' MCP section: `{mcp.method.name}
 * {target}`, `mcp.method.name`, `jsonrpc.request.id`, `mcp.session.id` (an HTTP session's),
 * `mcp.protocol.version` (once negotiated), `gen_ai.tool.name` for a `tools/call`, ended by its
 * response (`rpc.response.status_code` for a JSON-RPC error), its cancellation or the
 * connection's end. The span's trace context goes in the request's `params._meta.traceparent`,
 * so a server that reads it continues the chat's trace.
 *
 * A request sent outside traced work (a connection's `initialize` and `tools/list`, or any
 * request while traces are off: then no span exists anywhere) is sent as it is: the check is
 * whether the active context holds a span (the tool call's, kept with its record), nothing more.
 */
export function traceTransport<T extends Transport>(transport: T, { network, server }: { network: 'tcp' | 'pipe'; server?: URL }): T {
  const open = new Map<string | number, Span>()
  let protocolVersion: string | undefined
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport)
  if (setProtocolVersion) {
    transport.setProtocolVersion = (version) => {
      protocolVersion = version
      setProtocolVersion(version)
    }
  }
  const endOpen = (id: string | number, errorType?: string, code?: number) => {
    const span = open.get(id)
    if (!span) return
    open.delete(id)
    if (code !== undefined) span.setAttribute('rpc.response.status_code', String(code))
    if (errorType) {
      span.setStatus({ code: SpanStatusCode.ERROR })
      span.setAttribute('error.type', errorType)
    }
    span.end()
  }

  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    const parent = context.active()
    if (isMcpRequest(message) && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: string | number } | undefined)?.requestId
      if (cancelled !== undefined) endOpen(cancelled, 'cancelled')
    }
    if (!isMcpRequest(message) || message.id === undefined || !trace.getSpanContext(parent)) return send(message, options)
    const span = trace.getTracer(TRACER_NAME).startSpan(
      mcpSpanName(message),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...mcpAttributes(message, { sessionId: transport.sessionId, protocolVersion, transport: network }),
          ...(server ? { 'server.address': server.hostname, ...(server.port ? { 'server.port': Number(server.port) } : {}) } : {}),
        },
      },
      parent,
    )
    open.set(message.id, span)
    return send(withTraceContextInMeta(message, trace.setSpan(parent, span)) as JSONRPCMessage, options).catch((error: unknown) => {
      endOpen(message.id!, error instanceof Error ? error.name : 'Error')
      throw error
    })
  }

  // The SDK sets these once it connects; each is wrapped as it is set.
  wrapWhenSet(transport, 'onmessage', (handler) => (message, extra) => {
    const answer = message as { id?: string | number; method?: unknown; error?: { code?: unknown } }
    if (open.size > 0 && answer.id !== undefined && answer.method === undefined) {
      const code = typeof answer.error?.code === 'number' ? answer.error.code : undefined
      endOpen(answer.id, code === undefined ? undefined : String(code), code)
    }
    handler(message, extra)
  })
  wrapWhenSet(transport, 'onclose', (handler) => () => {
    for (const id of [...open.keys()]) endOpen(id, 'connection_closed')
    handler()
  })
  return transport
}

/** `transport[key]` wrapped by `wrap` each time it is set (once, not at each call). */
function wrapWhenSet<K extends 'onmessage' | 'onclose'>(transport: Transport, key: K, wrap: (handler: NonNullable<Transport[K]>) => NonNullable<Transport[K]>): void {
  let wrapped = transport[key] && wrap(transport[key]!)
  Object.defineProperty(transport, key, {
    configurable: true,
    get: () => wrapped,
    set: (handler: Transport[K]) => {
      wrapped = handler && wrap(handler)
    },
  })
}
