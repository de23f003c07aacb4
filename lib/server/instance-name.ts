import { hostname } from 'node:os'

/**
 * This server instance's name, as the operator's view and the session records say where a tool
 * call waits: `INSTANCE_NAME` when set (a Kubernetes pod's name, say), else the host's name and
 * the port it serves (`PORT`, 3000 by default). Two instances on one host differ by their port,
 * and an instance started again on its port is the same one: the calls it left waiting are its
 * own, and shown cold (no process holds them), not as another instance's that may still.
 * Processes that share one port (a cluster of workers) each need an `INSTANCE_NAME`.
 */
export function readInstanceName(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.INSTANCE_NAME?.trim().slice(0, 200) || `${hostname()}:${env.PORT?.trim() || '3000'}`
}
