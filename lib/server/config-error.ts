/** The variables the server reads: `process.env` or any plain object (tests). */
export type Environment = Readonly<Record<string, string | undefined>>

/** The environment does not describe a server that can start; the message says what to change. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
