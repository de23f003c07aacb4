import { ChatRequestError, type ClientIdentityResolver } from '../http'
import { isAuthStoreUnavailable } from './auth-store'
import type { SignIn } from './sign-in'

/**
 * The app's identity with sign-in configured: who is asking is the signed-in account, whose id
 * is the `clientId` the whole app keys work on — chats, waiting tool sessions, approvals, MCP App
 * frames — so the person's work follows them to every device they sign in on, and another
 * account finds none of it (404, as between browsers without sign-in). A request without a
 * session is refused with the 401 `sign_in_required` — unless guests may chat (`guests`, the
 * browser identity, with `AUTH_GUESTS=on`): then it is a guest's, its browser identity as
 * without sign-in (a new one, with its cookie, when it has none).
 */
export function createAccountIdentity(signIn: SignIn, guests?: ClientIdentityResolver): ClientIdentityResolver {
  return {
    resolve(request) {
      // Only the browser identity is resolved without the store; pages are gated by the proxy instead.
      if (guests) return guests.resolve(request)
      throw new ChatRequestError('sign_in_required', 'Sign in to use this chat.')
    },
    async identify(request) {
      try {
        const account = await signIn.account(request)
        if (account) return { clientId: account.id, headers: {}, person: account }
        // A guest carries no person: no admin's rights, no mcp.json server (docs/sign-in.md).
        if (guests) return guests.resolve(request)
        throw new ChatRequestError('sign_in_required', 'Sign in to use this chat.')
      } catch (error) {
        // Redis down: the 503 every store's outage is, never the store's own message (it names the host).
        if (isAuthStoreUnavailable(error)) throw new ChatRequestError('store_unavailable', 'Sign-in cannot be checked right now. Try again in a moment.')
        throw error
      }
    },
    joinCookie() {
      throw new ChatRequestError('invalid_request', 'Sign in on the other device instead: your chats follow your account.')
    },
    newBrowserId() {
      throw new ChatRequestError('invalid_request', 'Sign in on the other device instead: your chats follow your account.')
    },
  }
}
