import 'client-only'
// First: this chunk's forms and results parse with Zod, which must not try to compile parsers under the page's CSP.
import '@/lib/plugins/zod-without-eval'
import type { ElicitAnswer } from '@/lib/protocol'
import type { PluginClientRegistration } from '@/lib/plugins'
import { questionHandler } from '@/lib/plugins/question-handler'
import { EXTERNAL_QUESTION, type ConnectQuestion as ConnectQuestionContext, type FormQuestion, type SamplingQuestion, type UrlQuestion } from '@/lib/mcp/client/external-questions'
import { ConnectQuestion } from './ConnectQuestion'
import { ExternalForm } from './ExternalForm'
import { ExternalResult } from './ExternalResult'
import { QuestionApp } from './QuestionApp'
import { SamplingApproval } from './SamplingApproval'
import { ApprovalQuestionView } from './ToolApproval'
import { UrlQuestion as UrlQuestionView } from './UrlQuestion'

/**
 * The browser half every external MCP tool shares: the approval of a call, the server's forms
 * (in the server's own MCP App when it names one, SEP-3118), links and sampling requests, and
 * its results. Registered for each external tool's name by `Chat`'s registry
 * (`externalToolSource`), so external tools are found like plugins, never branched on.
 */
export const externalToolUi: Omit<PluginClientRegistration, 'toolName'> = {
  handlers: {
    // A question like a plugin's, answered by its component: answered, it folds to one line.
    [EXTERNAL_QUESTION.approval]: questionHandler(ApprovalQuestionView),
    *[EXTERNAL_QUESTION.form](request, ctx) {
      const { server, requestedSchema, app } = request.context as unknown as FormQuestion
      // The server's MCP App first, when it names one; its form when the app cannot answer.
      if (app) {
        const outcome = yield* ctx.render(QuestionApp, { server, callId: request.callId, elicitId: request.elicitId, requestedSchema, app })
        if (outcome.via === 'app') return outcome.answer
      }
      return (yield* ctx.render(ExternalForm, { message: request.message, server, requestedSchema })) as ElicitAnswer<unknown>
    },
    *[EXTERNAL_QUESTION.url](request, ctx) {
      const { server, url } = request.context as unknown as UrlQuestion
      return yield* ctx.render(UrlQuestionView, { message: request.message, server, url })
    },
    *[EXTERNAL_QUESTION.connect](request, ctx) {
      return yield* ctx.render(ConnectQuestion, { message: request.message, question: request.context as unknown as ConnectQuestionContext })
    },
    *[EXTERNAL_QUESTION.sampling](request, ctx) {
      return yield* ctx.render(SamplingApproval, { question: request.context as unknown as SamplingQuestion })
    },
  },
  resultView: ExternalResult,
}
