export { PendingQuestion } from './pending-question'
export type { AnswerCheck } from './pending-question'
export { createJournalingClient } from './journaling-client'
export type { JournalingClientOptions, ToolEvent } from './journaling-client'
export { ToolJournal } from './journal'
export type { JournalEntry } from './journal'
export { runTool } from './run-tool'
export type { RunToolOptions } from './run-tool'
export { runBranchTool } from './run-branch-tool'
export type { RunBranchToolOptions } from './run-branch-tool'
export { createMockBranchClient } from './mock-branch-client'
export type { MockBranchClient, MockBranchClientOptions, MockElicitResponse, MockSampleResponse } from './mock-branch-client'
export type { ToolClient, ToolClientCapabilities, ToolLogEntry, ToolProgress, ToolSampleRequest, ToolStepRequest } from './tool-client'
export {
  BranchDepthError,
  BranchTimeoutError,
  BranchTokenError,
  ElicitResponseError,
  ReplayDivergenceError,
  SampleOutputError,
  ToolUsageError,
} from './errors'
export { parseStructuredOutput } from './structured-output'
export { TraceParent, traceParent } from './trace-parent'
