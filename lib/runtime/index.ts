export { createBridgeHost, BridgeElicitRequest } from './bridge-host'
export type { BridgeEvent, BridgeHost, CreateBridgeHostOptions, RespondOutcome } from './bridge-host'
export { runTool } from './run-tool'
export type { RunToolOptions } from './run-tool'
export { runBranchTool } from './run-branch-tool'
export type { RunBranchToolOptions } from './run-branch-tool'
export { createMockBranchClient } from './mock-branch-client'
export type { MockBranchClient, MockBranchClientOptions, MockElicitCall, MockElicitResponse, MockSampleResponse } from './mock-branch-client'
export type { ToolClient, ToolClientCapabilities, ToolLogEntry, ToolProgress, ToolSampleRequest } from './tool-client'
export {
  BranchDepthError,
  BranchTimeoutError,
  BranchTokenError,
  ElicitResponseError,
  SampleOutputError,
  ToolUsageError,
} from './errors'
export { parseStructuredOutput } from './structured-output'
