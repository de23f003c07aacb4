import { z } from 'zod'
import { question } from '../../tools/elicits'
import { field } from '../../tools/form-fields'
import type { McpToolContext } from '../../tools/types'
import { EXTERNAL_QUESTION, type FormQuestion } from './external-questions'
import { flatFormAnswerSchema } from './flat-form-answer'
import { parseFlatForm } from './flat-form'

const json = z.record(z.string(), z.unknown())

/** What an external tool asks the user, as the tool runtime checks it. */
export const externalQuestions = {
  // Its form names the call and says each choice as done, so the answered card folds to "bump on faulty · Allowed once".
  [EXTERNAL_QUESTION.approval]: question({
    response: z.object({ scope: z.enum(['once', 'chat']) }),
    context: z.object({
      server: z.string(),
      tool: z.string(),
      title: z.string().optional(),
      description: z.string(),
      arguments: json,
      destructive: z.boolean().optional(),
    }),
    form: ({ server, tool }) => ({
      scope: field.choice(`${tool} on ${server}`, [
        { value: 'once', title: 'Allowed once' },
        { value: 'chat', title: 'Allowed for this chat' },
      ]),
    }),
  }),
  [EXTERNAL_QUESTION.form]: {
    context: z.object({ server: z.string(), requestedSchema: json, app: z.object({ resourceUri: z.string().startsWith('ui://'), request: json }).optional() }),
    responseFor: ({ requestedSchema }: FormQuestion) => flatFormAnswerSchema(parseFlatForm(requestedSchema)),
  },
  [EXTERNAL_QUESTION.url]: { response: z.object({}), context: z.object({ server: z.string(), url: z.string() }) },
  [EXTERNAL_QUESTION.sampling]: { response: z.object({}), context: z.object({ server: z.string() }).loose() },
  [EXTERNAL_QUESTION.connect]: { response: z.object({}), context: z.object({ server: z.string(), kind: z.enum(['oauth', 'variables']) }) },
}

/** What an external tool's call runs with: its questions, its progress and logs, its step. */
export type ExternalToolContext = McpToolContext<typeof externalQuestions>
