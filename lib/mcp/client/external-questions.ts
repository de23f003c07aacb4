/**
 * The questions an external tool call asks the user, by elicitation key, with the context each
 * carries to the browser (pure data: the browser's form reads the same module).
 */
export const EXTERNAL_QUESTION = {
  /** Before a call the person must approve: run it once, for the rest of the chat, or not; context `ApprovalQuestion`. */
  approval: 'mcp_approval',
  /** The server's form-mode elicitation; context `FormQuestion`. */
  form: 'mcp_form',
  /** The server's URL-mode elicitation: open a link, then confirm; context `UrlQuestion`. */
  url: 'mcp_url',
  /** The server asks the chat's model something; approve or deny; context `SamplingQuestion`. */
  sampling: 'mcp_sampling',
  /** A call of a server the person has not connected (or whose token was refused): connect, then go on; context `ConnectQuestion`. */
  connect: 'mcp_connect',
} as const

export interface FormQuestion {
  server: string
  /** The server's flat JSON Schema (MCP form mode). */
  requestedSchema: Record<string, unknown>
  /** The server asks for the form to be answered in its MCP App (SEP-3118, draft); the form stays the fallback. */
  app?: FormQuestionApp
}

/** The MCP App a form question is to be answered in, and what it is given. */
export interface FormQuestionApp {
  /** `_meta.ui.resourceUri`: a `ui://` resource of the server that asked. */
  resourceUri: string
  /** The `elicitation/create` params as the server sent them: forwarded to the app unchanged. */
  request: Record<string, unknown>
}

export interface UrlQuestion {
  server: string
  url: string
}

/** "Connect X to go on": the server asks each person to connect, and this person has not (or no longer). */
export interface ConnectQuestion {
  server: string
  /** How: an OAuth authorization (the card's Connect), or values the person enters (the server notice's form). */
  kind: 'oauth' | 'variables'
}

export interface SamplingQuestion {
  server: string
  /** What the server asks the model, as text, in order. */
  messages: Array<{ role: 'user' | 'assistant'; text: string }>
  systemPrompt?: string
  maxTokens: number
  temperature?: number
  stopSequences?: string[]
}

/** A call waiting for the person's approval: which server and tool, what it does, with what. */
export interface ApprovalQuestion {
  server: string
  /** The tool's own name on its server. */
  tool: string
  /** Its `title` (or `annotations.title`), when the server gives one. */
  title?: string
  description: string
  /** What the call would be made with: the model's (or the slash command's) arguments. */
  arguments: Record<string, unknown>
  /** The server marks the tool `destructiveHint: true`: it may delete or overwrite things. */
  destructive?: boolean
}

/** How the person approved a call: this call only, or every call of this tool in this chat. */
export type ApprovalScope = 'once' | 'chat'

/** The content of an accepted approval; Deny is a decline. */
export interface ApprovalAnswer {
  scope: ApprovalScope
}
