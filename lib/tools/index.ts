export { createMcpTool } from './create-mcp-tool'
export type { McpToolBuilder, McpToolBuilderWithElicits } from './create-mcp-tool'
export type { ElicitSpec, ElicitsMap, ResponseOf, ContextOf, ElicitOptions } from './elicits'
export type {
  AnyMcpTool,
  ElicitId,
  ElicitResult,
  McpTool,
  McpToolContext,
  SampleMessage,
  SampleRequest,
  SampleResult,
} from './types'
export { decodeModelContext, encodeModelContext, MODEL_CONTEXT_BOUNDARY, MODEL_CONTEXT_KEY } from './model-context'
export type { ModelContext } from './model-context'
export { formatElicitId, parseElicitId } from './elicit-id'
