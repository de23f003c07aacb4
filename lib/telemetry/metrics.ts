import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import { bucketHistogram, type BucketHistogram } from './bucket-histogram'
import { createRefusalTally, type RefusalTally } from './refusal-tally'

/**
 * The server's metrics, in one registry that `METRICS_PORT` serves to Prometheus
 * (`lib/server/metrics-server.ts`). Updated in the process as things happen (a histogram
 * observed, a counter added to): nothing per request beyond that. Names follow the OpenTelemetry
 * conventions where they have one, as a Prometheus exporter writes them (dots as underscores,
 * the unit as a suffix: `http.server.request.duration` is `http_server_request_duration_seconds`);
 * our own start with `elicit_`. Every label has a bounded set of values: routes, methods,
 * status codes, error codes, tool names — never an id. `docs/operating.md` lists them all.
 */
export interface ServerMetrics {
  registry: Registry
  /** `http.server.request.duration`: from the request reaching Next to its response's end (a streamed turn included). */
  httpRequestDuration: BucketHistogram<'http_request_method' | 'http_route' | 'http_response_status_code'>
  /**
   * Requests refused with a code of ours (`{ error: { code } }`), with the overload scope of a
   * 429: the one tally `elicit_refusals_total` and the operator's view (its last hour) both read.
   */
  refusals: RefusalTally
  /** Turns that streamed, then ended with an `error` event, by its code. */
  turnErrors: Counter<'code'>
  /** `gen_ai.client.operation.duration`: each model call of a chat step, with `error_type` when it failed. */
  modelCallDuration: BucketHistogram<'gen_ai_operation_name' | 'gen_ai_provider_name' | 'gen_ai_request_model' | 'error_type'>
  /** `gen_ai.client.token.usage`: the tokens of each finished model call, input and output apart. */
  modelTokens: BucketHistogram<'gen_ai_operation_name' | 'gen_ai_provider_name' | 'gen_ai_request_model' | 'gen_ai_token_type'>
  /** Model calls that failed, by `error_type` (`timeout`, or the error's name). */
  modelErrors: Counter<'gen_ai_provider_name' | 'error_type'>
  /** `db.client.operation.duration`: each read or write of the sessions' store, by store (`sqlite`, `redis`, `memory`) and operation. */
  storeOperationDuration: BucketHistogram<'db_system_name' | 'db_operation_name' | 'error_type'>
  /** Answers to waiting tools, by what became of them: `resumed_hot`, `replayed`, `rejected`, `refused`, `expired`, `ended`, `lost`. */
  answers: Counter<'outcome'>
  /** Reads, at each scrape, how many tool sessions wait for a person, by tool: the session store's own count. */
  countWaitingSessions(count: () => Promise<ReadonlyMap<string, number>>): void
  /** Reads, at each scrape, how many MCP sessions are open: the MCP endpoint's own records. */
  countMcpSessions(count: () => Promise<number>): void
}

/** `http.server.request.duration`'s buckets, as the conventions advise (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60]

/** The conventions' advice for `gen_ai.client.operation.duration` (seconds) and `gen_ai.client.token.usage`. */
const MODEL_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
/** The conventions' advice for `db.client.operation.duration` (seconds): a store answers in well under a millisecond to a second. */
const STORE_DURATION_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]
const MODEL_LABELS = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model'] as const

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  let countWaiting: (() => Promise<ReadonlyMap<string, number>>) | undefined
  let countMcp: (() => Promise<number>) | undefined
  const refusals = createRefusalTally()
  new Counter({
    name: 'elicit_refusals_total',
    help: 'Requests refused with an error code of ours, by code and, for a 429, whose limit (address or server).',
    labelNames: ['code', 'scope'],
    registers: [registry],
    collect() {
      this.reset()
      for (const { code, scope, count } of refusals.totals()) this.inc({ code, scope }, count)
    },
  })
  new Gauge({
    name: 'elicit_tool_sessions_waiting',
    help: 'Tool sessions waiting for a person to answer, by tool (read from the session store at each scrape).',
    labelNames: ['tool'],
    registers: [registry],
    async collect() {
      if (!countWaiting) return
      const counts = await countWaiting()
      this.reset()
      for (const [tool, count] of counts) this.set({ tool }, count)
    },
  })
  new Gauge({
    name: 'elicit_mcp_sessions_open',
    help: 'MCP sessions (protocol 2025) open on every instance of the store (read from the MCP endpoint\'s records at each scrape).',
    registers: [registry],
    async collect() {
      if (countMcp) this.set(await countMcp())
    },
  })
  return {
    registry,
    httpRequestDuration: bucketHistogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests (http.server.request.duration).',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    refusals,
    turnErrors: new Counter({
      name: 'elicit_turn_errors_total',
      help: 'Chat turns that began streaming and ended with an error event, by its code.',
      labelNames: ['code'],
      registers: [registry],
    }),
    modelCallDuration: bucketHistogram({
      name: 'gen_ai_client_operation_duration_seconds',
      help: 'Duration of model calls (gen_ai.client.operation.duration).',
      labelNames: [...MODEL_LABELS, 'error_type'],
      buckets: MODEL_DURATION_BUCKETS,
      registers: [registry],
    }),
    modelTokens: bucketHistogram({
      name: 'gen_ai_client_token_usage',
      help: 'Tokens used by model calls, by token type (gen_ai.client.token.usage).',
      labelNames: [...MODEL_LABELS, 'gen_ai_token_type'],
      buckets: TOKEN_BUCKETS,
      registers: [registry],
    }),
    modelErrors: new Counter({
      name: 'elicit_model_errors_total',
      help: 'Model calls that failed, by error type (timeout, or the error name).',
      labelNames: ['gen_ai_provider_name', 'error_type'],
      registers: [registry],
    }),
    storeOperationDuration: bucketHistogram({
      name: 'db_client_operation_duration_seconds',
      help: 'Duration of the sessions store operations (db.client.operation.duration).',
      labelNames: ['db_system_name', 'db_operation_name', 'error_type'],
      buckets: STORE_DURATION_BUCKETS,
      registers: [registry],
    }),
    answers: new Counter({
      name: 'elicit_answers_total',
      help: 'Answers to waiting tool calls, by outcome: resumed_hot, replayed, rejected, refused, expired, ended, lost.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    countWaitingSessions(count) {
      countWaiting = count
    },
    countMcpSessions(count) {
      countMcp = count
    },
  }
}

const globalForMetrics = globalThis as typeof globalThis & { serverMetrics?: ServerMetrics }

/** The process's metrics; kept on globalThis, since the routes run from another bundle than instrumentation. */
export function serverMetrics(): ServerMetrics {
  globalForMetrics.serverMetrics ??= createServerMetrics()
  return globalForMetrics.serverMetrics
}
