import type { ServerMetrics } from '../telemetry'
import type { StoreOperationReport } from './timed-session-store'

/** `db.system.name` of each store the app opens: the embedded one is SQLite (libsql). */
const SYSTEM: Record<string, string> = { embedded: 'sqlite', redis: 'redis', memory: 'memory' }

/** Each operation of the sessions' store (`timedSessionStore`) as `db.client.operation.duration`. */
export function storeOperationMetrics(metrics: ServerMetrics, store: string): (report: StoreOperationReport) => void {
  const system = SYSTEM[store] ?? store
  return ({ operation, seconds, errorType }) =>
    metrics.storeOperationDuration.observe({ db_system_name: system, db_operation_name: operation, error_type: errorType ?? '' }, seconds)
}
