/** Runs once when the server starts; the Node.js half opens the chat server (see `instrumentation-node.ts`). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./instrumentation-node')
}
