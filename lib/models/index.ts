export { createOfflineModel } from './offline-model'
export { createOpenAIModel, DEFAULT_OPENAI_MODEL } from './openai-model'
export { selectChatModel, type ChatModelChoice } from './select-model'
export {
  MAX_READ_CHARS,
  MAX_TOOL_CALLS_PER_STEP,
  type OfflineIntent,
  type OfflineRequest,
  type OfflineSample,
  type OfflineSkill,
} from './offline-skill'
export { hasCalledTool, isGreeting, userText } from './offline-prompt'
export { createStructuredValue } from './offline-structured'
export { plainLabel, readNumberedChoices, type PromptChoice, type PromptHints } from './offline-prompt-hints'
