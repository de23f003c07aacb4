import type { ClientCapabilities, ElicitRequestFormParams, ServerCapabilities } from '@modelcontextprotocol/client'
import type { Question } from '../../protocol/question'
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from '../mcp-apps-extension'
import { EXTERNAL_QUESTION, type FormQuestionApp } from './external-questions'
import { externalQuestions } from './question-specs'
import { RELATED_CALL } from './related-calls'
import { splitExternalToolName } from './tool-names'

/**
 * What the chat declares in `initialize`: form and URL questions, sampling, and MCP Apps —
 * apps of tools, and app-rendered elicitations (SEP-3118, draft), by which a form question may
 * name an MCP App of the same server to be answered in (`FormQuestion.app`).
 */
export const CHAT_CLIENT_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE], elicitation: {} } },
} satisfies ClientCapabilities

/** The longest `ui://` URI taken from a server (as for tools' apps). */
const MAX_URI_LENGTH = 2_000

/** Whether a server advertised app-rendered elicitations (`extensions["io.modelcontextprotocol/ui"].elicitation`). */
export function serverOffersElicitationApps(capabilities: ServerCapabilities | undefined): boolean {
  const elicitation = (capabilities?.extensions?.[MCP_APPS_EXTENSION] as { elicitation?: unknown } | undefined)?.elicitation
  return typeof elicitation === 'object' && elicitation !== null
}

/**
 * The MCP App a server's form question asks to be answered in, or undefined for the plain form.
 * Only when both sides negotiated it (the chat always declares it; the server must have
 * advertised it: a hint not negotiated is ignored, as SEP-3118 says) and `_meta.ui.resourceUri`
 * is a `ui://` URI, which is read from that same server. The request is kept as it came, less
 * the chat's own call tag (`RELATED_CALL`), to be forwarded to the app unchanged.
 */
export function elicitationAppOf(params: ElicitRequestFormParams, server: ServerCapabilities | undefined): FormQuestionApp | undefined {
  if (!serverOffersElicitationApps(server)) return undefined
  const uri = (params._meta as { ui?: { resourceUri?: unknown } } | undefined)?.ui?.resourceUri
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length > MAX_URI_LENGTH) return undefined
  const { [RELATED_CALL]: _ours, ...meta } = params._meta as Record<string, unknown>
  return { resourceUri: uri, request: { ...params, _meta: meta } }
}

/**
 * The MCP App a waiting question is to be answered in — the server that asked it, its tool, the
 * app's `ui://` URI — or undefined when it is no external server's form naming one. What binds
 * an app to its one question: the app is found from the question the session waits on, never
 * from anything the browser says.
 */
export function questionAppOf(question: Pick<Question, 'toolName' | 'key' | 'context'>): { server: string; tool: string; uri: string } | undefined {
  if (question.key !== EXTERNAL_QUESTION.form) return undefined
  const names = splitExternalToolName(question.toolName)
  const context = externalQuestions[EXTERNAL_QUESTION.form].context.safeParse(question.context)
  if (!names || !context.success || !context.data.app || context.data.server !== names.server) return undefined
  return { server: names.server, tool: names.tool, uri: context.data.app.resourceUri }
}

/**
 * Where the MCP Apps host finds a question's app (its `QuestionAppSource`): the question this
 * client's call waits on now, if it is the one named, read through the chat's sessions.
 */
export function questionAppsOf(chat: { waitingQuestion(options: { clientId: string; callId: string }): Promise<Question | undefined> }) {
  return {
    async questionApp({ clientId, callId, elicitId }: { clientId: string; callId: string; elicitId: string }) {
      const question = await chat.waitingQuestion({ clientId, callId })
      return question?.elicitId === elicitId ? questionAppOf(question) : undefined
    },
  }
}
