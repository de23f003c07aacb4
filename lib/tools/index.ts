export { createBranchTool, createMcpTool } from './create-mcp-tool'
export type { McpToolBuilder, McpToolBuilderWithElicits } from './create-mcp-tool'
export type { ElicitSpec, ElicitsMap, ResponseOf, ContextOf, ElicitOptions, QuestionSpec } from './elicits'
export { question } from './elicits'
export { field } from './form-fields'
export type { FieldChoice, FormField, FormFields, QuestionForm } from './form-fields'
export { createElicitExchange, exchangeCallId } from './exchange'
export { HandoffError, toJsonData } from './handoff'
export type { Handoff } from './handoff'
export { DEFAULT_BRANCH_LIMITS } from './limits'
export type { BranchLimits, ToolRequirements } from './limits'
export type { ExternalTool, ExternalToolSource } from './external-tools'
export type { AssistantToolCallMessage, ExtendedMessage, SampleMessage, ToolCall, ToolResultMessage } from './sample-messages'
export type {
  AnyMcpTool,
  BranchContext,
  BranchOptions,
  ElicitAnswer,
  ElicitExchange,
  ElicitId,
  ElicitResult,
  McpTool,
  McpToolContext,
  SampleRequest,
  SampleResult,
  StructuredSampleResult,
} from './types'
export { formatElicitId, parseElicitId } from '../protocol/elicit-id'
