export { createOfflineModel } from './offline-model'
export { createOpenAIModel, DEFAULT_OPENAI_MODEL } from './openai-model'
export { selectChatModel, type ChatModelChoice } from './select-model'
