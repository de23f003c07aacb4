/** The devices API as the browser calls it (docs/devices.md); a refusal becomes an Error with the server's message. */

import type { ListedBrowser } from '@/lib/devices'

export type { ListedBrowser }

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } })
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined
  if (!response.ok) throw new Error(body?.error?.message ?? `The server answered ${response.status}.`)
  return body as T
}

export const makeCode = () => call<{ code: string; expiresAt: number; joinPath: string }>('/api/devices/codes', { method: 'POST', body: '{}' })
export const listBrowsers = () => call<{ browsers: ListedBrowser[] }>('/api/devices').then((answer) => answer.browsers)
export const revokeBrowser = (id: string) => call<{ id: string }>(`/api/devices/${encodeURIComponent(id)}`, { method: 'DELETE' })
export const joinWithCode = (code: string) => call<{ joined: true }>('/api/devices/join', { method: 'POST', body: JSON.stringify({ code }) })
