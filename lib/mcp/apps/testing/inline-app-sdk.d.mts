/** See inline-app-sdk.mjs: an MCP App page on the official App SDK, self-contained. */
export function appWithSdk(options: { body: string; script: string }): string
