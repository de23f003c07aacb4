import type { ServerMetrics } from '../telemetry'
import { dbSystemOf, type StoreOperationReport } from './observed-store'

/** Each operation of the sessions' store (`observedStore`) as `db.client.operation.duration`. */
export function storeOperationMetrics(metrics: ServerMetrics, store: string): (report: StoreOperationReport) => void {
  const system = dbSystemOf(store)
  return ({ operation, seconds, errorType }) =>
    metrics.storeOperationDuration.observe({ db_system_name: system, db_operation_name: operation, error_type: errorType ?? '' }, seconds)
}
