export { makePlugin } from './make-plugin'
export type { PluginBuilder, PluginWithHandlers, ToolResultOf } from './make-plugin'
export { createPluginRegistry } from './plugin-registry'
export type { PluginRegistry } from './plugin-registry'
export { createPluginClientContext, executePluginElicitHandler, PluginHandlerError } from './plugin-executor'
export type { RenderedComponent, CreatePluginClientContextOptions } from './plugin-executor'
export type { FormQuestionProps } from './question-handler'
export type {
  ElicitComponentProps,
  ElicitHandler,
  ElicitProps,
  ElicitRegistrations,
  PluginClientContext,
  PluginClientRegistration,
  PluginSource,
  PluginUi,
  PluginUiLoader,
  PluginUiLoaders,
  QuestionComponent,
  QuestionProps,
  ResultViewProps,
} from './types'
