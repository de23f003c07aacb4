import { vi } from 'vitest'

/**
 * Every line the code under test writes to the console, still printed as before: for tests that
 * check no token or secret reaches a log. Call it in `beforeEach`; `vi.restoreAllMocks()` ends it.
 */
export function recordConsoleLines(): string[] {
  const lines: string[] = []
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level]
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '))
      original(...args)
    })
  }
  return lines
}
