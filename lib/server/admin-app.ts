import { getAdminAccess } from './admin-access'
import type { AdminApp } from './handle-admin-requests'
import { getOperatorApp } from './operator-instance'

/** The admin routes' app: the operator's sources are opened only for an admin's request. */
export async function getAdminApp(): Promise<AdminApp> {
  return { access: await getAdminAccess(), operator: getOperatorApp }
}
