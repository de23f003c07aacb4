/**
 * The apps shown on the page, each with its `ui/resource-teardown`. The chat tears them down
 * before it removes their cards (New chat): once React has removed an iframe, nothing posted
 * to it arrives any more, so teardown has to come first.
 */
const live = new Set<() => Promise<void>>()

export function registerLiveApp(teardown: () => Promise<void>): () => void {
  live.add(teardown)
  return () => live.delete(teardown)
}

/** Ask every app on the page to tear down, each for at most `timeoutMs`. */
export async function teardownMcpApps({ timeoutMs = 1_000 }: { timeoutMs?: number } = {}): Promise<void> {
  const teardowns = [...live]
  live.clear()
  await Promise.all(
    teardowns.map((teardown) =>
      Promise.race([teardown(), new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]).catch(() => {}),
    ),
  )
}
