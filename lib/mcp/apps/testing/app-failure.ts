import { isMcpAppError } from '../mcp-app-error'

/** What an MCP Apps host call was refused with (its code, status and message); any other outcome fails the test. */
export async function appFailure(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!isMcpAppError(error)) throw new Error(`expected an McpAppError, got ${String(error)}`)
  return { code: error.code, status: error.status, message: error.message }
}
