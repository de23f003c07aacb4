import { UnauthorizedError, type AuthProvider } from '@modelcontextprotocol/client'
import type { Operation } from 'effection'
import type { McpServerConfig } from '../mcp-servers-config'
import { McpAccessRefusal } from './access-refusal'
import type { CredentialStore } from './credential-store'
import { createPersonalOAuth, type OAuthServer, type PersonalOAuth } from './personal-oauth'
import { personalId, sealCredentials } from './sealed-credentials'

/** The longest value a person may enter for a user variable. */
export const MAX_VARIABLE_LENGTH = 4_096

/** A `url` server of `mcp.json`. */
export type UrlServerConfig = Extract<McpServerConfig, { transport: 'http' | 'sse' }>

/**
 * Each person's own access to the servers of `mcp.json`: their OAuth tokens (`personal-oauth.ts`)
 * and the values they entered for an entry's `userVariables`, both sealed in the store, and what a
 * person's own connection to a server is made with (its headers, its token).
 */
export interface PersonalAccess {
  readonly oauth: PersonalOAuth
  /** The entry's headers with this person's values put in for each `${NAME}`; undefined while one is missing. */
  headers(person: string, server: UrlServerConfig): Promise<Record<string, string> | undefined>
  /** Keep the person's values for the entry's `userVariables` (every one, text, at most 4,096 characters, on one line). */
  setVariables(person: string, server: UrlServerConfig, values: unknown): Promise<void>
  forgetVariables(person: string, server: string): Promise<void>
  /** The person's token for the transport: refreshed ahead of expiry; a 401 after a refresh means they must connect again. */
  authProvider(person: string, server: UrlServerConfig): AuthProvider
}

export function createPersonalAccess({
  store,
  secret,
  run,
  appUrl,
  requestTimeoutMs,
}: {
  store: CredentialStore
  /** What the seal's key is derived from (the app's `SESSION_SECRET`). */
  secret: string
  run: <R>(operation: () => Operation<R>) => Promise<R>
  appUrl: URL
  /** Each request of the OAuth flow at most (default 10 s). */
  requestTimeoutMs?: number
}): PersonalAccess {
  const credentials = sealCredentials({ store, secret })
  const oauth = createPersonalOAuth({ credentials, run, appUrl, ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}) })
  const asOAuth = (server: UrlServerConfig): OAuthServer => server
  return {
    oauth,
    async headers(person, server) {
      if (!server.userVariables) return server.headers
      const values = (await run(() => credentials.get('variables', personalId(server.name, person)))) ?? {}
      if (Object.keys(server.userVariables).some((name) => typeof values[name] !== 'string')) return undefined
      return Object.fromEntries(Object.entries(server.headers).map(([header, value]) => [header, value.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => values[name]!)]))
    },
    async setVariables(person, server, values) {
      const declared = server.userVariables
      if (!declared) throw new McpAccessRefusal('not_personal', `${server.name} declares no userVariables.`)
      const given = typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, unknown>) : {}
      const problems = Object.entries(declared).flatMap(([name, { title }]) => {
        const value = given[name]
        if (typeof value !== 'string' || value.trim() === '') return [`${title} (${name}) is missing`]
        if (value.length > MAX_VARIABLE_LENGTH) return [`${title} (${name}) is longer than ${MAX_VARIABLE_LENGTH} characters`]
        // A header value cannot hold a line break: it could add a header of its own.
        if (/[\r\n\0]/.test(value)) return [`${title} (${name}) must be on one line`]
        return []
      })
      const unknown = Object.keys(given).filter((name) => !Object.hasOwn(declared, name))
      if (unknown.length > 0) problems.push(`${unknown.slice(0, 3).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among ${server.name}'s userVariables`)
      if (problems.length > 0) throw new McpAccessRefusal('invalid_variables', `${problems.join('; ')}.`)
      const kept = Object.fromEntries(Object.keys(declared).map((name) => [name, (given[name] as string).trim()]))
      await run(() => credentials.put('variables', personalId(server.name, person), kept))
    },
    async forgetVariables(person, server) {
      await run(() => credentials.delete('variables', personalId(server, person)))
    },
    authProvider(person, server) {
      return {
        token: () => oauth.accessToken({ person, server: asOAuth(server) }),
        async onUnauthorized() {
          // The token was refused before it lapsed (revoked, or the server's clock): the person connects again.
          throw new UnauthorizedError(`${server.name} refused this person's token; they connect again.`)
        },
      }
    },
  }
}
