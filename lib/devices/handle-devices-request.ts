import type { Operation } from 'effection'
import type { z } from 'zod'
import { ChatRequestError, clientAddressOf, readJsonBody, toApiFailure, type Admission, type ClientIdentityResolver, type RateDecision } from '../http'
import { BROWSER_ID_PATH, createCodeBodySchema, joinBodySchema } from './api-schema'
import { isDeviceStoreUnavailable } from './device-store'
import type { AskingBrowser, Devices } from './devices'
import { DeviceError, isDeviceError } from './errors'
import type { JoinLimiter } from './join-limiter'

/** What the devices API needs: the devices, who is asking, the limits, and how to run an operation in the devices' scope. */
export interface DevicesApp {
  devices: Devices
  /** The app's identity resolver (the one whose `revoked` check the device store answers). */
  identity: ClientIdentityResolver
  /** The chat's admission: every devices request is new work, charged to its address and to the server. */
  admission?: Pick<Admission, 'take'>
  /** Join attempts per address and for the server: what makes guessing codes hopeless. */
  joins: JoinLimiter
  /** Runs an operation of `devices` in the scope they live in. */
  run<T>(operation: () => Operation<T>): Promise<T>
  /**
   * Sign-in is configured (lib/auth): the chats follow the account, not the browser, so every
   * endpoint answers `409 sign_in_there` — sign in on the other device with the same account.
   */
  signInThere?: boolean
}

/** Which endpoint of the devices API a request is for (the routes under app/api/devices say). */
export type DevicesEndpoint = { action: 'list' } | { action: 'create-code' } | { action: 'join' } | { action: 'revoke'; id: string }

const SMALL_BODY_BYTES = 4 * 1024

/**
 * The devices API (docs/devices.md): who is asking (the identity cookie), then what they sent
 * (bounded, validated), then the devices of that identity only. Every refusal is
 * `{ error: { code, message } }` with its status; a 429 says `Retry-After`; Redis down is a 503
 * `store_unavailable`, as on the chat route.
 */
export async function handleDevicesRequest({ app, request, endpoint }: { app: DevicesApp; request: Request; endpoint: DevicesEndpoint }): Promise<Response> {
  let headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  try {
    const client = await app.identity.identify(request)
    headers = { ...headers, ...client.headers }
    if (app.signInThere) throw new DeviceError('sign_in_there', 'Sign in on the other device with the same account: your chats follow your account there.')
    refuseOtherSites(request)
    const address = clientAddressOf(request)
    refuseOver(app.admission?.take(address))
    if (endpoint.action === 'join') refuseOver(app.joins.take(address), 'Too many codes tried from your address. Wait, then try again.')
    const asking: AskingBrowser = { clientId: client.clientId, browserId: client.browserId, userAgent: request.headers.get('user-agent') }
    const response = await answer({ app, request, endpoint, asking })
    for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value)
    return response
  } catch (error) {
    const failure = toDeviceFailure(error)
    if (failure) return failure.toResponse(headers)
    throw error
  }
}

async function answer({ app, request, endpoint, asking }: { app: DevicesApp; request: Request; endpoint: DevicesEndpoint; asking: AskingBrowser }): Promise<Response> {
  const { devices, run } = app
  switch (endpoint.action) {
    case 'list': {
      const browsers = await run(() => devices.list(asking))
      return Response.json({ browsers })
    }
    case 'create-code': {
      if (request.body !== null) parse(createCodeBodySchema, await readJsonBody(request, SMALL_BODY_BYTES))
      const { code, expiresAt } = await run(() => devices.createCode(asking))
      return Response.json({ code, expiresAt, joinPath: `/join?code=${code}` }, { status: 201 })
    }
    case 'join': {
      const { code } = parse(joinBodySchema, await readJsonBody(request, SMALL_BODY_BYTES))
      const joined = await run(() => devices.join(code, asking))
      // The joined identity's cookie replaces whatever this browser had (a fresh identity's included).
      return Response.json({ joined: true, browserId: joined.browserId }, { headers: app.identity.joinCookie(request, joined) })
    }
    case 'revoke': {
      if (!BROWSER_ID_PATH.test(endpoint.id)) throw new DeviceError('browser_not_found', 'There is no such browser (it may have been revoked already).')
      await run(() => devices.revoke(asking, endpoint.id))
      return Response.json({ id: endpoint.id, revoked: true })
    }
  }
}

function refuseOver(decision: RateDecision | undefined, addressMessage = 'Too many requests from your address. Wait a moment, then try again.'): void {
  if (!decision || decision.allowed) return
  const message = decision.scope === 'address' ? addressMessage : 'The server is taking too many requests right now. Wait a moment, then try again.'
  throw new ChatRequestError('rate_limited', message, undefined, decision.retryAfterSeconds, decision.scope)
}

/**
 * Browsers say who made a request: a join or a revoke comes from this app's pages (same-origin),
 * or from a client that is not a browser (no `Sec-Fetch-Site`), never from another site's page —
 * which could otherwise join a visitor's browser to an attacker's identity (login CSRF), or make codes.
 */
function refuseOtherSites(request: Request): void {
  if (request.method === 'GET' || request.method === 'HEAD') return
  const site = request.headers.get('sec-fetch-site')
  if (request.headers.get('origin') === 'null' || (site !== null && site !== 'same-origin' && site !== 'none')) {
    throw new DeviceError('forbidden_origin', 'Devices are managed from the chat page only.')
  }
}

/** What a client is told of a failure: a `DeviceError`, the edge's refusals (body, rate), or the store down (503). */
function toDeviceFailure(error: unknown): DeviceError | ChatRequestError | undefined {
  return toApiFailure(error, { isOwn: isDeviceError, isStoreUnavailable: isDeviceStoreUnavailable, what: 'Devices' })
}

function parse<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  throw new DeviceError('invalid_request', `The request is not valid: ${first ? `${first.path || 'the body'}: ${first.message}` : 'it does not match.'}`, issues)
}
