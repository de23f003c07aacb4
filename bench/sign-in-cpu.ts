// Issue 35: what sign-in costs the server a booking. One production server with sign-in
// configured against a real OpenID Provider (oidc-provider, in this process) and guests allowed
// (AUTH_GUESTS=on), so that the same process serves both: a booking by a guest (the browser
// identity's cookie, as without sign-in: no store read) and one by a signed-in person (the
// session cookie: its record read from the store on every request, checked with the provider
// once a minute). Each booking is a kept chat made and booked in (four requests), in blocks that
// alternate; the server process's CPU time (every thread, /proc) per booking.
import { startTestOidcProvider } from '../lib/testing/oidc-provider'
import { signInOverHttp } from '../lib/auth/testing/provider-login'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { startServer } from './server-process'

export interface SignInCpu {
  /** Server CPU ms per booking by a guest and by a signed-in person, one figure per block. */
  guestMs: number[]
  signedInMs: number[]
  /** median signed in / median guest. */
  ratio: number
}

/** At most this much more server CPU a booking signed in than without (issue 35). */
export const SIGN_IN_CPU_TARGET = 1.05

/** A browser identity's cookie, as a guest's browser gets it with its first page. */
async function guestCookie(base: string): Promise<string> {
  const response = await fetch(`${base}/api/chats`)
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('chat_client_id='))?.split(';')[0]
  if (response.status !== 200 || !cookie) throw new Error(`GET /api/chats as a guest: HTTP ${response.status}, no identity cookie`)
  return cookie
}

/** One booking as the chat page makes it: a new kept chat (`POST /api/chats`), then the booking's three requests in it. */
async function bookInNewChat(base: string, cookie: string): Promise<void> {
  const response = await fetch(`${base}/api/chats`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{}' })
  if (response.status !== 201) throw new Error(`POST /api/chats: HTTP ${response.status} ${await response.text()}`)
  const { chat } = (await response.json()) as { chat: { id: string } }
  await bookOverHttp({ baseUrl: base, chat: { id: chat.id, cookie } })
}

/** `bookings` bookings each way on the embedded store, in blocks of 10 that alternate, after a warm-up of 10 each. */
export async function measureSignInCpu({ port, env, bookings }: { port: number; env: Record<string, string>; bookings: number }): Promise<SignInCpu> {
  const base = `http://127.0.0.1:${port}`
  const provider = await startTestOidcProvider({ redirectUris: [`${base}/auth/callback`] })
  try {
    const server = await startServer({
      port,
      env: {
        ...env,
        APP_URL: base,
        AUTH_OIDC_ISSUER: provider.issuer,
        AUTH_OIDC_CLIENT_ID: provider.clientId,
        AUTH_OIDC_CLIENT_SECRET: provider.clientSecret,
        AUTH_ALLOWED_EMAILS: '@example.com',
        AUTH_GUESTS: 'on',
      },
    })
    try {
      const signedIn = (await signInOverHttp(base, 'alice')).session
      if (!signedIn) throw new Error('alice could not sign in')
      const cookies = { guest: await guestCookie(base), signedIn }
      for (let index = 0; index < 10; index++) {
        await bookInNewChat(base, cookies.guest)
        await bookInNewChat(base, cookies.signedIn)
      }
      const perBooking = { guest: [] as number[], signedIn: [] as number[] }
      const block = 10
      for (let done = 0; done < bookings; done += block) {
        for (const kind of ['guest', 'signedIn'] as const) {
          const before = processCpuMs(server.pid)
          for (let index = 0; index < block; index++) await bookInNewChat(base, cookies[kind])
          perBooking[kind].push((processCpuMs(server.pid) - before) / block)
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
      return { guestMs: perBooking.guest, signedInMs: perBooking.signedIn, ratio: median(perBooking.signedIn) / median(perBooking.guest) }
    } finally {
      await server.stop()
    }
  } finally {
    await provider.stop()
  }
}
