import generated from 'otlp-transformer-decoders/build/src/generated/root.js'
import type { IAnyValue, IKeyValue } from 'otlp-transformer-decoders/build/src/common/internal-types'
import type { IExportTraceServiceRequest } from 'otlp-transformer-decoders/build/src/trace/internal-types'

/** The two encodings of OTLP/HTTP, by the `content-type` the exporter sends (and a collector answers in). */
export const OTLP_CONTENT_TYPES = { protobuf: 'application/x-protobuf', json: 'application/json' } as const
export type OtlpEncoding = keyof typeof OTLP_CONTENT_TYPES

/** A span as the receiver got it, its attributes made plain values. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Record<string, unknown>
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, unknown> }>
  service: string
  /** The instrumentation scope that made it: `elicit-chat` for ours, `next.js` for Next's own. */
  scope: string
  /** How the exporter encoded the request that brought it. */
  encoding: OtlpEncoding
}

/** What the generated codecs are (the package types its generated root only as a protobufjs `Root`). */
interface Codec<Plain> {
  decode(body: Uint8Array): object
  fromObject(plain: object): object
  toObject(message: object, options: typeof CONVERSION): Plain
}

/** An `AnyValue` as its `toObject` gives it with `oneofs`: `value` names the one field that is set. */
type PlainAnyValue = { value?: string; arrayValue?: { values?: PlainAnyValue[] }; kvlistValue?: { values?: Array<{ key: string; value?: PlainAnyValue }> } } & Record<string, unknown>

const { proto } = (generated as unknown as { opentelemetry: { proto: GeneratedProto } }).opentelemetry
interface GeneratedProto {
  common: { v1: { AnyValue: Codec<PlainAnyValue> } }
  collector: { trace: { v1: { ExportTraceServiceRequest: Codec<IExportTraceServiceRequest> } } }
}
const { AnyValue } = proto.common.v1
const { ExportTraceServiceRequest } = proto.collector.trace.v1
/** 64-bit integers as numbers, bytes as Buffers, and each oneof's set field named. */
const CONVERSION = { longs: Number, oneofs: true }

/** `content-type` → encoding; any other type is no OTLP/HTTP request. */
export function otlpEncoding(contentType: string | undefined): OtlpEncoding | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase()
  return (Object.keys(OTLP_CONTENT_TYPES) as OtlpEncoding[]).find((encoding) => OTLP_CONTENT_TYPES[encoding] === type)
}

/**
 * The spans of one OTLP/HTTP trace export, decoded with OpenTelemetry's own generated protobuf
 * code (`@opentelemetry/otlp-transformer` 0.216.0, the last to ship it, under the alias
 * `otlp-transformer-decoders`): a protobuf body by `ExportTraceServiceRequest.decode`, read by its
 * `toObject`; a JSON body is already that plain form (OTLP/JSON is protobuf's JSON mapping, ids in
 * hex). Attribute values are made plain by `AnyValue`'s own `fromObject` and `toObject`.
 */
export function decodeSpans(encoding: OtlpEncoding, body: Buffer): ReceivedSpan[] {
  const request: IExportTraceServiceRequest =
    encoding === 'protobuf' ? ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), CONVERSION) : JSON.parse(body.toString('utf8'))
  return (request.resourceSpans ?? []).flatMap((resource) => {
    const service = String(attributesOf(resource.resource?.attributes)['service.name'])
    return (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => {
        const parentSpanId = hex(span.parentSpanId)
        return {
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          ...(parentSpanId ? { parentSpanId } : {}),
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map((link) => ({ traceId: hex(link.traceId), spanId: hex(link.spanId), attributes: attributesOf(link.attributes) })),
          service,
          scope: scope.scope?.name ?? '',
          encoding,
        }
      }),
    )
  })
}

/** An id as hex: protobuf carries its bytes, OTLP/JSON writes it in hex already. */
function hex(id: string | Uint8Array | undefined): string {
  return typeof id === 'string' ? id : Buffer.from(id ?? []).toString('hex')
}

function attributesOf(attributes: IKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, plain(value)]))
}

/** `fromObject` takes either encoding's form (OTLP/JSON writes 64-bit integers as strings). */
function plain(value: IAnyValue | undefined): unknown {
  return unwrap(AnyValue.toObject(AnyValue.fromObject(value ?? {}), CONVERSION))
}

function unwrap(value: PlainAnyValue | undefined): unknown {
  if (!value?.value) return undefined
  if (value.value === 'arrayValue') return (value.arrayValue?.values ?? []).map(unwrap)
  if (value.value === 'kvlistValue') return Object.fromEntries((value.kvlistValue?.values ?? []).map((entry) => [entry.key, unwrap(entry.value)]))
  return value[value.value]
}
