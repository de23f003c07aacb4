export { createMcpEndpoint, MCP_SERVER_INFO } from './mcp-endpoint'
export type { McpEndpoint, McpEndpointOptions } from './mcp-endpoint'
export { McpToolShapeError, checkToolForms } from './tool-forms'
export { whyNotInFormSubset } from './form-subset'
