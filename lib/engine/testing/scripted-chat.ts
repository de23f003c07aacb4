import { createOpenAIModel } from '../../models/openai-model'
import { startOpenAICompatibleServer, type ChatCompletionRequestBody, type ScriptedReply } from '../../models/testing/openai-compatible-server'
import { createChatServer, type ChatServerOptions } from '../chat-server'
import { createChatTestClient } from './chat-test-client'

/**
 * A chat server whose model is a local OpenAI-compatible server answering as `respond`
 * scripts, with a test client on it. `close()` ends both servers.
 */
export async function startScriptedChat({
  respond,
  ...options
}: Omit<ChatServerOptions, 'model'> & {
  respond(body: ChatCompletionRequestBody): ScriptedReply | PromiseLike<ScriptedReply>
}) {
  const server = await startOpenAICompatibleServer({ respond })
  const chat = await createChatServer({ ...options, model: createOpenAIModel({ apiKey: 'test-key', baseURL: server.url, model: 'test-model' }) })
  return {
    server,
    chat,
    client: createChatTestClient({ chat }),
    async close() {
      await chat.close()
      await server.close()
    },
  }
}

export type ScriptedChat = Awaited<ReturnType<typeof startScriptedChat>>
