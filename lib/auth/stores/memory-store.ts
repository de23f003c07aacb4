import type { AuthSession, AuthStore, SignInFlow } from '../auth-store'

/** An `AuthStore` in this process's memory (`SESSION_STORE=memory`, tests): lost on restart, seen by this process only. */
export function createMemoryAuthStore(): AuthStore {
  const flows = new Map<string, SignInFlow>()
  const sessions = new Map<string, AuthSession>()
  return {
    kind: 'memory',
    *putFlow(flow) {
      for (const [state, kept] of flows) if (kept.expiresAt <= Date.now()) flows.delete(state)
      flows.set(flow.state, flow)
    },
    *takeFlow(state, now) {
      const flow = flows.get(state)
      flows.delete(state)
      return flow && flow.expiresAt > now ? flow : undefined
    },
    *putSession(session) {
      sessions.set(session.id, session)
    },
    *getSession(id, now) {
      const session = sessions.get(id)
      if (session && session.expiresAt <= now) sessions.delete(id)
      return session && session.expiresAt > now ? session : undefined
    },
    *claimCheck(id, seen, now) {
      const session = sessions.get(id)
      if (!session || session.checkedAt !== seen) return false
      sessions.set(id, { ...session, checkedAt: now })
      return true
    },
    *endSession(id) {
      sessions.delete(id)
    },
  }
}
