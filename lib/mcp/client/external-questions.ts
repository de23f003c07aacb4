/**
 * The questions an external tool call asks the user, by elicitation key, with the context each
 * carries to the browser (pure data: the browser's form reads the same module).
 */
export const EXTERNAL_QUESTION = {
  /** The server's form-mode elicitation; context `FormQuestion`. */
  form: 'mcp_form',
  /** The server's URL-mode elicitation: open a link, then confirm; context `UrlQuestion`. */
  url: 'mcp_url',
  /** The server asks the chat's model something; approve or deny; context `SamplingQuestion`. */
  sampling: 'mcp_sampling',
} as const

export interface FormQuestion {
  server: string
  /** The server's flat JSON Schema (MCP form mode). */
  requestedSchema: Record<string, unknown>
}

export interface UrlQuestion {
  server: string
  url: string
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
