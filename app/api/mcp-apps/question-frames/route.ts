import { readJsonBody } from '@/lib/http'
import { answerAppRequest, parseAppBody } from '@/lib/mcp/apps'
import { getMcpAppsApp } from '@/lib/server/mcp-apps-instance'
import { openQuestionAppSchema } from './schema'

export const dynamic = 'force-dynamic'

/**
 * Open the MCP App an external server's form question is to be answered in (SEP-3118): its
 * frame's `src` and policy, while this browser's call waits on that question. A 404 says it
 * does not (any more); the chat then shows the question's form.
 */
export async function POST(request: Request): Promise<Response> {
  return answerAppRequest({
    request,
    app: await getMcpAppsApp(),
    async handle({ host, asker }) {
      const { callId, elicitId } = parseAppBody(openQuestionAppSchema, await readJsonBody(request, 4 * 1024))
      return Response.json(await host.openQuestionApp({ ...asker, callId, elicitId, signal: request.signal }), { headers: { 'Cache-Control': 'no-store' } })
    },
  })
}
