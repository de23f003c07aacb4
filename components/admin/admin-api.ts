import type { EndWaitingCallRequest } from '@/lib/protocol'

/** A refused admin request's message (`{ error: { message } }`), or a plain one. */
async function failureOf(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined
  return new Error(body?.error?.message ?? `The server answered ${response.status}.`)
}

async function postJson(path: string, body: unknown): Promise<void> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw await failureOf(response)
}

/** `POST /api/admin/session`: the token exchanged for the admin cookie (HttpOnly: this page never keeps the token). */
export function exchangeAdminToken(token: string): Promise<void> {
  return postJson('/api/admin/session', { token })
}

/** `POST /api/admin/waiting-calls/end`. */
export function endWaitingCall(call: EndWaitingCallRequest): Promise<void> {
  return postJson('/api/admin/waiting-calls/end', call)
}
