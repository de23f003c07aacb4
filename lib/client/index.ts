export { useChat } from './use-chat'
export type { UseChatResult } from './use-chat'
export { createChatController } from './chat-controller'
export type { ChatController, CreateChatControllerOptions, KeptChatOptions } from './chat-controller'
export { replayChat, loadKeptChat } from './server-chat'
export type { KeptChat, KeptTurn, LoadedChat } from './server-chat'
export type { ChatSnapshot, RenderMap } from './chat-store'
export { renderKey } from './handler-tasks'
export { STOP_REASON } from './chat-transport'
export { initialChatState, reduceChat, openElicitations } from './chat-state'
export type { ChatAction, ChatState, ChatStatus } from './chat-state'
export type {
  AssistantEntry,
  DisplayEntry,
  ElicitationEntry,
  ElicitationStatus,
  LogLine,
  ToolCallEntry,
  ToolCallStatus,
  UserEntry,
} from './display-entries'
export { readNdjson, NdjsonParseError } from './read-ndjson'
export { postChat, ChatHttpError } from './chat-request'
export { BUSY_RETRY_LIMIT_MS, secondsUntil, untilNextSecond } from './busy-retry'
export type { BusyRetry } from './busy-retry'
export { parseComposerText, slashCommandTools } from './slash-command'
export type { ComposerIntent } from './slash-command'
export { safeHref } from './safe-href'
export { loadMarkdownParser, useMarkdownParser, type MarkdownParser } from './markdown-parser'
export type { MarkdownToken } from './markdown'
