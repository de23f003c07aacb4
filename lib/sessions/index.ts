export {
  usePluginSessionManager,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_HOT_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_KEEP_MS,
} from './plugin-session-manager'
export type {
  LoadedSession,
  PluginSessionInfo,
  PluginSessionManager,
  PluginSessionManagerOptions,
  SessionLimits,
} from './plugin-session-manager'
export type { WaitingCall } from './waiting-calls'
export { settledOutcome } from './answer-outcome'
export type { AnswerOutcome, AnswerRefusal, AnswersOutcome, SessionAnswer, TakeOverOutcome, ToolResume } from './answer-outcome'
export { LiveSession } from './live-session'
export type { LiveSessionEvent, SessionRuntime, SessionTiming } from './live-session'
export { SessionConflictError, SessionLimitError } from './errors'
export { SessionRecordError, SESSION_RECORD_FORMAT, decodeSessionRecord, encodeSessionRecord } from './session-record'
export type { JournalEntry, SessionEnding, SessionRecord, SessionStatus, SpanRef } from './session-record'
export { traceContextOf } from './session-record'
export { isSessionStoreUnavailable, SessionStoreUnavailableError } from './session-store'
export type { SessionStore, StoredSession } from './session-store'
export { createMemorySessionStore } from './stores/memory-store'
export { moveWaitingSessions } from './move-waiting'
