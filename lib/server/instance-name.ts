import { hostname } from 'node:os'

/**
 * This server instance's name, as the operator's view and the session records say where a tool
 * call waits: `INSTANCE_NAME` when set (a Kubernetes pod's name, say), else the host's name and
 * the process id (two instances on one host differ).
 */
export function readInstanceName(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.INSTANCE_NAME?.trim().slice(0, 200) || `${hostname()}:${process.pid}`
}
