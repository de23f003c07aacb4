export { usePluginSessionManager, DEFAULT_IDLE_TIMEOUT_MS } from './plugin-session-manager'
export type {
  CreatePluginSessionConfig,
  EndedSession,
  PluginSessionInfo,
  PluginSessionManager,
  PluginSessionManagerOptions,
} from './plugin-session-manager'
export { isTerminal } from './plugin-session'
export type { PluginSession, PluginSessionEvent, PluginSessionStatus } from './plugin-session'
export { createInMemorySessionStore } from './tool-session-store'
export type { ToolSessionEntry, ToolSessionStore } from './tool-session-store'
