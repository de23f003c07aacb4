import { readJsonBody } from '@/lib/http'
import { answerAppRequest, parseAppBody } from '@/lib/mcp/apps'
import { getMcpAppsApp } from '@/lib/server/mcp-apps-instance'
import { openAppSchema } from './schema'

export const dynamic = 'force-dynamic'

/** Open a tool's MCP App: its frame's `src`, the ticket its bridge calls tools with, its policy. */
export async function POST(request: Request): Promise<Response> {
  return answerAppRequest({
    request,
    app: await getMcpAppsApp(),
    async handle({ host, asker }) {
      const { server, tool } = parseAppBody(openAppSchema, await readJsonBody(request, 16 * 1024))
      return Response.json(await host.openApp({ ...asker, server, tool, signal: request.signal }), { headers: { 'Cache-Control': 'no-store' } })
    },
  })
}
