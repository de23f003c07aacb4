import { z } from 'zod'
import { readJsonBody, toChatFailure } from '../http'
import type { AdminAccess } from './admin-access'
import { AdminError, isAdminError } from './admin-error'
import type { OperatorApp } from './operator-instance'
import { accountHash, readOperatorView } from './read-operator-view'

/** What every admin route needs: who is an admin, and the operator's sources. */
export interface AdminApp {
  access: AdminAccess
  operator: () => Promise<OperatorApp>
}

/** The reason a call ended by an operator gives, in the person's chat and to the model. */
export const ENDED_BY_OPERATOR = 'An operator ended this question.'

const SMALL_BODY_BYTES = 4 * 1024
const NO_STORE = { 'Cache-Control': 'no-store' }

const tokenBody = z.object({ token: z.string().min(1).max(1000) })
const endBody = z.object({ account: z.string().regex(/^[0-9a-f]{16}$/), callId: z.string().min(1).max(200) })

/**
 * The admin routes (docs/operating.md, "The operator's view"): each answers an admin only, and
 * refuses anything else with `{ error: { code, message } }` (`ADMIN_ERROR_STATUS`), never a 500.
 * - `GET /api/admin/operator`: the operator's view (`OperatorView`).
 * - `POST /api/admin/waiting-calls/end` `{ account, callId }`: ends that waiting call.
 * - `POST /api/admin/session` `{ token }`: `ADMIN_TOKEN` exchanged for the admin cookie; `DELETE`: the cookie ended.
 */
export async function handleAdminRequest({
  app,
  request,
  endpoint,
}: {
  app: AdminApp
  request: Request
  endpoint: 'operator' | 'end-waiting-call' | 'start-session' | 'end-session'
}): Promise<Response> {
  try {
    switch (endpoint) {
      case 'start-session': {
        const { token } = parsed(tokenBody, await readJsonBody(request, SMALL_BODY_BYTES))
        const cookie = app.access.exchange(token, request)
        if (!cookie) throw new AdminError('wrong_admin_token', app.access.tokenConfigured ? 'That is not the admin token.' : 'No ADMIN_TOKEN is configured on this server.')
        return Response.json({ admin: true }, { headers: { ...NO_STORE, 'Set-Cookie': cookie } })
      }
      case 'end-session':
        return Response.json({ admin: false }, { headers: { ...NO_STORE, 'Set-Cookie': app.access.clear(request) } })
      case 'operator':
        await refuseNonAdmin(app, request)
        return Response.json(await readOperatorView(await app.operator()), { headers: NO_STORE })
      case 'end-waiting-call': {
        await refuseNonAdmin(app, request)
        const { account, callId } = parsed(endBody, await readJsonBody(request, SMALL_BODY_BYTES))
        const operator = await app.operator()
        const call = (await operator.listWaiting()).find((waiting) => waiting.callId === callId && accountHash(waiting.clientId) === account)
        const ended = call !== undefined && (await operator.endWaiting({ clientId: call.clientId, callId, reason: ENDED_BY_OPERATOR }))
        if (!ended) throw new AdminError('call_not_waiting', `Tool call ${callId} of that account does not wait for an answer: it was answered, ended or expired.`)
        return Response.json({ ended: { account, callId } }, { headers: NO_STORE })
      }
    }
  } catch (error) {
    const failure = isAdminError(error) ? error : toChatFailure(error)
    if (failure) return failure.toResponse(NO_STORE)
    throw error
  }
}

async function refuseNonAdmin(app: AdminApp, request: Request): Promise<void> {
  if (!(await app.access.isAdmin(request))) {
    throw new AdminError('admin_only', 'This is for admins: sign in as one, give the admin token at /admin, or send Authorization: Bearer <ADMIN_TOKEN>.')
  }
}

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new AdminError('invalid_request', `The body does not fit: ${issue.path.join('.') || 'body'}: ${issue.message}`)
  }
  return result.data
}
