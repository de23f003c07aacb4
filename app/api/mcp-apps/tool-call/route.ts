import { readJsonBody } from '@/lib/http'
import { answerAppRequest, parseAppBody } from '@/lib/mcp/apps'
import { getMcpAppsApp } from '@/lib/server/mcp-apps-instance'
import { appToolCallSchema } from './schema'

export const dynamic = 'force-dynamic'

/** Run a tool of an app's own server for it; the answer is the server's `CallToolResult`. */
export async function POST(request: Request): Promise<Response> {
  return answerAppRequest({
    request,
    app: await getMcpAppsApp(),
    async handle({ host, asker }) {
      const body = parseAppBody(appToolCallSchema, await readJsonBody(request, 1024 * 1024))
      const result = await host.callTool({ ...asker, ...body, signal: request.signal })
      return Response.json(result, { headers: { 'Cache-Control': 'no-store' } })
    },
  })
}
