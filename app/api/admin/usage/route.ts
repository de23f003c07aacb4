import { handleUsageRequest } from '@/lib/budgets'
import { getUsageApp } from '@/lib/server/budget-instance'

export const dynamic = 'force-dynamic'

/** Each account's model tokens of today with its limit, for an admin (`Authorization: Bearer <ADMIN_TOKEN>`). */
export async function GET(request: Request): Promise<Response> {
  return handleUsageRequest({ app: await getUsageApp(), request })
}
