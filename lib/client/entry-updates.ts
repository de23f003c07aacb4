// Immutable updates of the display entries, for the chat reducer.
import type { ChatState } from './chat-state'
import type { DisplayEntry, ElicitationEntry, ElicitationStatus, ToolCallEntry } from './display-entries'

/** Elicitation states in which the server still waits and the browser has not answered. */
export const OPEN: readonly ElicitationStatus[] = ['waiting', 'answered']

export function appendText(state: ChatState, content: string): ChatState {
  const last = state.entries.at(-1)
  const entries: DisplayEntry[] =
    last?.kind === 'assistant' && last.streaming
      ? [...state.entries.slice(0, -1), { ...last, text: last.text + content }]
      : [...state.entries, { kind: 'assistant', id: `assistant-${state.entries.length}`, text: content, streaming: true }]
  const turn = state.turn && { ...state.turn, text: state.turn.text + content, textReceived: true }
  return { ...state, entries, turn }
}

export function endAssistantText(state: ChatState): ChatState {
  if (!state.entries.some((entry) => entry.kind === 'assistant' && entry.streaming)) return state
  return {
    ...state,
    entries: state.entries.map((entry) => (entry.kind === 'assistant' && entry.streaming ? { ...entry, streaming: false } : entry)),
  }
}

/** Update a tool card, adding it when the stream names a call this client has not seen. */
export function updateTool(state: ChatState, callId: string, name: string, update: (tool: ToolCallEntry) => ToolCallEntry): ChatState {
  if (!findTool(state, callId)) {
    const card: ToolCallEntry = {
      kind: 'tool',
      id: `tool-${callId}`,
      callId,
      name,
      arguments: undefined,
      status: 'running',
      logs: [],
      elicitations: [],
    }
    return { ...state, entries: [...state.entries, update(card)] }
  }
  return updateExistingTool(state, callId, update)
}

export function updateExistingTool(state: ChatState, callId: string, update: (tool: ToolCallEntry) => ToolCallEntry): ChatState {
  if (!findTool(state, callId)) return state
  return { ...state, entries: state.entries.map((entry) => (entry.kind === 'tool' && entry.callId === callId ? update(entry) : entry)) }
}

export function findTool(state: ChatState, callId: string): ToolCallEntry | undefined {
  return state.entries.find((entry): entry is ToolCallEntry => entry.kind === 'tool' && entry.callId === callId)
}

export function mapElicitations(state: ChatState, update: (elicitation: ElicitationEntry) => ElicitationEntry): ChatState {
  let changed = false
  const entries = state.entries.map((entry) => {
    if (entry.kind !== 'tool' || entry.elicitations.length === 0) return entry
    const elicitations = entry.elicitations.map(update)
    if (elicitations.every((elicitation, index) => elicitation === entry.elicitations[index])) return entry
    changed = true
    return { ...entry, elicitations }
  })
  return changed ? { ...state, entries } : state
}

export function updateElicitation(state: ChatState, elicitId: string, update: (elicitation: ElicitationEntry) => ElicitationEntry): ChatState {
  return mapElicitations(state, (elicitation) => (elicitation.question.elicitId === elicitId ? update(elicitation) : elicitation))
}

/** The tool's questions still open, closed (its call ended) or, with `status` 'stopped', stopped before their answer. */
export function closeElicitations(tool: ToolCallEntry, status: 'closed' | 'stopped' = 'closed'): ToolCallEntry {
  if (!tool.elicitations.some((elicitation) => OPEN.includes(elicitation.status))) return tool
  return {
    ...tool,
    elicitations: tool.elicitations.map((elicitation) => (OPEN.includes(elicitation.status) ? { ...elicitation, status } : elicitation)),
  }
}
