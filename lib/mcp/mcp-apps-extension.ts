/** The MCP Apps extension's key in capabilities (SEP-1865); its `elicitation` member is app-rendered elicitations (SEP-3118, draft). */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui'

/** The one MIME type of an MCP App's HTML (MCP Apps 2026-01-26). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'
