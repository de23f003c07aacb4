/** The sign-out form's box (`on` when ticked): the person's connections to MCP servers are kept for next time. */
export const KEEP_CONNECTIONS_FIELD = 'keepConnections'
