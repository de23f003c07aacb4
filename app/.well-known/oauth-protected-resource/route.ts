import { protectedResourceMetadata } from '@/lib/server/mcp-server-instance'

export const dynamic = 'force-dynamic'

/** RFC 9728: `/api/mcp`'s metadata as an OAuth protected resource (also at the path-suffixed `/api/mcp` form). */
export function GET(): Response {
  return protectedResourceMetadata()
}
