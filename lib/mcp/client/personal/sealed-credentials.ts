import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client'
import type { Operation } from 'effection'
import type { CredentialStore } from './credential-store'

/** One person's OAuth tokens for one server, and when they were saved (`expires_in` counts from then). */
export interface KeptTokens {
  tokens: StoredOAuthTokens
  savedAt: number
  /** Where they came from: to refresh them, and to revoke them on Disconnect. */
  discovery?: OAuthDiscoveryState
  /** The `resource` (RFC 8707) they were asked for. */
  resource?: string
}

/** An authorization under way, from Connect to the callback: kept under its `state`, taken once. */
export interface ConnectFlow {
  person: string
  server: string
  codeVerifier: string
  /** What discovery found, so the callback exchanges the code at the same authorization server. */
  discovery?: OAuthDiscoveryState
  /** The chat's path to come back to. */
  returnTo: string
  expiresAt: number
}

/** What is kept, by what it is: each kind's key names whose it is. */
interface Kinds {
  tokens: KeptTokens
  variables: Record<string, string>
  /** The app's registration at a server's authorization server (dynamic registration): one per server, for everyone. */
  client: StoredOAuthClientInformation
  flow: ConnectFlow
}
type Kind = keyof Kinds

const VERSION = 'v1'
const IV_BYTES = 12

/**
 * The credentials' store behind AES-256-GCM: every value is sealed with a key derived (HKDF-SHA256)
 * from the app's secret, and bound to its own key as associated data, so a sealed value copied to
 * another person's or server's key does not open. A value that does not open (another secret, a
 * value tampered with) reads as absent: the person connects again.
 */
export interface SealedCredentials {
  get<K extends Kind>(kind: K, id: string): Operation<Kinds[K] | undefined>
  put<K extends Kind>(kind: K, id: string, value: Kinds[K], expiresAt?: number): Operation<void>
  take<K extends Kind>(kind: K, id: string): Operation<Kinds[K] | undefined>
  delete(kind: Kind, id: string): Operation<void>
}

/** The key a person's value for a server is kept under. */
export function personalId(server: string, person: string): string {
  return `${server}:${person}`
}

export function sealCredentials({ store, secret }: { store: CredentialStore; secret: string }): SealedCredentials {
  const key = Buffer.from(hkdfSync('sha256', secret, 'elicit-chat', 'mcp-credentials v1', 32))
  const seal = (name: string, value: unknown) => {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    cipher.setAAD(Buffer.from(name))
    const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()])
    return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`
  }
  const open = (name: string, text: string | undefined): unknown => {
    const [version, iv, sealed] = text?.split('.') ?? []
    if (version !== VERSION || !iv || !sealed) return undefined
    try {
      const bytes = Buffer.from(sealed, 'base64url')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAAD(Buffer.from(name))
      decipher.setAuthTag(bytes.subarray(bytes.length - 16))
      return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8'))
    } catch {
      return undefined
    }
  }
  const nameOf = (kind: Kind, id: string) => `${kind}:${id}`
  return {
    *get(kind, id) {
      const name = nameOf(kind, id)
      return open(name, yield* store.get(name, Date.now())) as never
    },
    *put(kind, id, value, expiresAt) {
      const name = nameOf(kind, id)
      yield* store.put(name, seal(name, value), expiresAt)
    },
    *take(kind, id) {
      const name = nameOf(kind, id)
      return open(name, yield* store.take(name, Date.now())) as never
    },
    *delete(kind, id) {
      yield* store.delete(nameOf(kind, id))
    },
  }
}
