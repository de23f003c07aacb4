import type { ClientIdentityResolver } from './client-identity'

const INSTALLED = Symbol.for('elicit-chat.page-identity')
const slot = globalThis as typeof globalThis & { [INSTALLED]?: ClientIdentityResolver }

/**
 * Gives a page its browser identity with its HTML, before any of its requests. Without it, a
 * browser on its first visit had no cookie until its first API response, and the page's first
 * requests, sent side by side (the list of chats, the first message's new chat), were each given
 * an identity of their own — the last cookie won, and a chat made under another could be "not
 * found". With the cookie set on the page, every request of the page carries the same one.
 *
 * Installed once per process, from instrumentation, with the app's identity (the same secret,
 * proxy trust and revoked browsers as every API route); read by the proxy (proxy.ts), whose
 * bundle stays free of the server by reading it here rather than importing the chat server. The
 * proxy runs in the server's own process and context (Node.js runtime), so both see one slot.
 */
export function installPageIdentity(identity: ClientIdentityResolver): void {
  slot[INSTALLED] = identity
}

/**
 * The cookie a page's response sets: a new identity's when the request carries no valid one
 * (none, forged, or a revoked browser's), nothing when it does. Nothing either before
 * instrumentation has installed the identity (a request that early gets its cookie from its
 * first API response, as before).
 */
export function pageIdentityHeaders(request: Request): Record<string, string> {
  return slot[INSTALLED]?.resolve(request).headers ?? {}
}
