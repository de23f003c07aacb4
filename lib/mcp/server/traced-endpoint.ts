import { context, SpanKind, SpanStatusCode, trace, type Link, type Span, type Tracer } from '@opentelemetry/api'
import { isMcpRequest, mcpAttributes, mcpSpanName, traceContextInMeta, type McpRequestMessage } from '../mcp-spans'
import type { McpEndpoint } from './mcp-endpoint'

/**
 * `/api/mcp` traced (only when traces are exported: the composition root wraps the endpoint
 * then, and never otherwise): a server span per JSON-RPC request by the conventions' MCP section,
 * `{mcp.method.name} {target}` with `mcp.method.name`, `jsonrpc.request.id`, `mcp.session.id` and
 * `mcp.protocol.version` (the request's headers, or an `initialize`'s own), `gen_ai.tool.name` for
 * a `tools/call`, and `rpc.response.status_code` for a JSON-RPC error. Its parent is the trace
 * context the client put in `params._meta.traceparent`, linked to the HTTP request's span, or
 * that span when `_meta` carries none. It ends with the response's body (a call's stream
 * included). A GET (a stream resumed), a DELETE and a JSON-RPC response (an answer to the
 * server's question) keep the HTTP span alone.
 */
export function tracedMcpEndpoint(endpoint: McpEndpoint, tracer: Tracer): McpEndpoint {
  return {
    async handle(request) {
      const message = request.method === 'POST' ? await requestMessageOf(request) : undefined
      if (!message) return endpoint.handle(request)
      const transport = context.active()
      const carried = traceContextInMeta(message)
      const httpSpan = trace.getSpanContext(transport)
      const links: Link[] = carried && httpSpan ? [{ context: httpSpan }] : []
      const parent = carried ?? transport
      const span = tracer.startSpan(
        mcpSpanName(message),
        {
          kind: SpanKind.SERVER,
          attributes: mcpAttributes(message, {
            sessionId: request.headers.get('mcp-session-id') ?? undefined,
            protocolVersion: request.headers.get('mcp-protocol-version') ?? undefined,
            transport: 'tcp',
          }),
          links,
        },
        parent,
      )
      let response: Response
      try {
        response = await context.with(trace.setSpan(parent, span), () => endpoint.handle(request))
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
        span.setAttribute('error.type', error instanceof Error ? error.name : 'Error')
        span.end()
        throw error
      }
      // A new session's id comes with the answer to its initialize.
      const sessionId = response.headers.get('mcp-session-id')
      if (sessionId && message.method === 'initialize') span.setAttribute('mcp.session.id', sessionId)
      await noteOutcome(span, response)
      return endingWithBody(response, () => span.end())
    },
    openSessions: () => endpoint.openSessions(),
    close: () => endpoint.close(),
  }
}

/** The request's JSON-RPC request, read from a copy of its body; undefined for anything else (a response, a batch, not JSON). */
async function requestMessageOf(request: Request): Promise<McpRequestMessage | undefined> {
  try {
    const message: unknown = await request.clone().json()
    return isMcpRequest(message) ? message : undefined
  } catch {
    return undefined
  }
}

/** An HTTP refusal, or a JSON-RPC error in a JSON answer, as the span's error. */
async function noteOutcome(span: Span, response: Response): Promise<void> {
  let code: number | undefined
  if (response.headers.get('content-type')?.startsWith('application/json')) {
    try {
      const answer = (await response.clone().json()) as { error?: { code?: unknown } }
      if (typeof answer?.error?.code === 'number') code = answer.error.code
    } catch {
      // Not JSON after all: the status alone says how it went.
    }
  }
  if (code !== undefined) span.setAttribute('rpc.response.status_code', String(code))
  if (response.status >= 400 || code !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR })
    span.setAttribute('error.type', code !== undefined ? String(code) : String(response.status))
  }
}

/** `response` whose body, read to its end or cancelled, calls `end` once (at once when it has none). */
function endingWithBody(response: Response, end: () => void): Response {
  if (!response.body) {
    end()
    return response
  }
  const reader = response.body.getReader()
  let ended = false
  const once = () => {
    if (!ended) {
      ended = true
      end()
    }
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          once()
          controller.close()
        } else controller.enqueue(value)
      } catch (error) {
        once()
        controller.error(error)
      }
    },
    cancel(reason) {
      once()
      return reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
