import { z } from 'zod'
import { messageSchema } from '../protocol/messages'
import { elicitResultSchema } from '../protocol/request-schema'
import type { ChatState } from './chat-state'

import { CHAT_STORAGE_KEY } from './storage-key'

export { CHAT_STORAGE_KEY }

const logLevelSchema = z.enum(['debug', 'info', 'warning', 'error'])

const elicitationSchema = z.object({
  sessionId: z.string(),
  callId: z.string(),
  elicitId: z.string(),
  toolName: z.string(),
  key: z.string(),
  message: z.string(),
  schema: z.record(z.string(), z.unknown()),
  choices: z.record(z.string(), z.array(z.object({ value: z.string(), title: z.string() }))).optional(),
  attempt: z.number().int().positive(),
  status: z.enum(['waiting', 'answered', 'submitted', 'stopped', 'closed']),
  answers: z.array(z.unknown()),
  result: elicitResultSchema.optional(),
  rejection: z
    .object({ message: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() })
    .optional(),
  error: z.string().optional(),
})

const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), streaming: z.boolean() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    status: z.enum(['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'stopped']),
    progress: z.object({ message: z.string(), value: z.number().min(0).max(1).optional() }).optional(),
    logs: z.array(z.object({ level: logLevelSchema, message: z.string() })),
    elicitations: z.array(elicitationSchema),
    // Optional: a result that is plain text has no value (Zod 4 requires an unknown key unless told otherwise).
    result: z.object({ text: z.string(), value: z.unknown().optional() }).optional(),
    external: z.object({ server: z.string(), tool: z.string(), uiResourceUri: z.string().optional() }).optional(),
    error: z.string().optional(),
  }),
])

const chatStateSchema = z.object({
  messages: z.array(messageSchema),
  entries: z.array(entrySchema),
  status: z.enum(['idle', 'streaming', 'awaiting_input', 'error']),
  error: z.string().optional(),
  turn: z
    .object({
      kind: z.enum(['message', 'responses', 'abort']),
      text: z.string(),
      textReceived: z.boolean(),
      receivedState: z.boolean(),
      elicitIds: z.array(z.string()),
    })
    .optional(),
})

// The schema and the state type must not drift apart.
const checkSchemaMatchesState: (value: z.output<typeof chatStateSchema>) => ChatState = (value) => value
void checkSchemaMatchesState

/** Where the client state survives a reload. */
export interface ChatPersistence {
  load(): ChatState | undefined
  save(state: ChatState): void
  clear(): void
}

/**
 * Keep the chat in `localStorage` under a versioned key. Anything stored that does not
 * validate is removed and the chat starts fresh; a storage that refuses writes (quota,
 * private mode) only loses persistence, never the chat.
 *
 * @example
 * const persistence = createLocalPersistence({ storage: window.localStorage })
 * const restored = persistence.load() ?? initialChatState
 */
export function createLocalPersistence({
  storage,
  key = CHAT_STORAGE_KEY,
}: {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  key?: string
}): ChatPersistence {
  return {
    load() {
      let text: string | null
      try {
        text = storage.getItem(key)
      } catch {
        return undefined
      }
      if (text === null) return undefined
      try {
        const parsed = chatStateSchema.safeParse(JSON.parse(text))
        if (parsed.success) return parsed.data
      } catch {
        // Not JSON: dropped below like any other unreadable state.
      }
      try {
        storage.removeItem(key)
      } catch {
        // Nothing more to do: the chat starts fresh either way.
      }
      return undefined
    },
    save(state) {
      try {
        storage.setItem(key, JSON.stringify(state))
      } catch {
        // Quota exceeded or storage disabled: the chat goes on without persistence.
      }
    },
    clear() {
      try {
        storage.removeItem(key)
      } catch {
        // As above.
      }
    },
  }
}

/** `localStorage` persistence in a browser; none during server rendering or when storage is blocked. */
export function createBrowserPersistence(): ChatPersistence | undefined {
  if (typeof window === 'undefined') return undefined
  try {
    return createLocalPersistence({ storage: window.localStorage })
  } catch {
    return undefined
  }
}
