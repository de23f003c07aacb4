import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useAppDataDir } from '@/lib/testing/app-data-dir'

/*
 * The routes as Next runs them, wired to the app's instances (lib/server/devices-instance.ts and
 * the chat app's identity resolver): the devices in DATA_DIR's devices.db, the chats in its
 * conversations.db, one identity cookie for both.
 */
const dataDir = useAppDataDir('devices-routes-')

/** A browser with its cookie jar, sending same-origin requests as the app's pages do. */
function browser(userAgent: string) {
  let cookie: string | undefined
  return {
    request(url: string, init: { method?: string; body?: unknown } = {}) {
      return new Request(`http://localhost${url}`, {
        method: init.method ?? 'GET',
        headers: {
          'user-agent': userAgent,
          'sec-fetch-site': 'same-origin',
          ...(cookie ? { cookie } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
    },
    keep(response: Response) {
      const set = response.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]
      return response
    },
  }
}

describe('the /api/devices routes', () => {
  it('join a second browser to the first one’s chats with a code, and revoke it: it is back to a chat list of its own', async () => {
    const chats = await import('../chats/route')
    const devices = await import('./route')
    const codes = await import('./codes/route')
    const join = await import('./join/route')
    const device = await import('./[id]/route')
    const laptop = browser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')
    const phone = browser('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')

    const created = laptop.keep(await chats.POST(laptop.request('/api/chats', { method: 'POST' })))
    const { chat } = (await created.json()) as { chat: { id: string } }
    const listOf = async (who: ReturnType<typeof browser>) => ((await who.keep(await chats.GET(who.request('/api/chats'))).json()) as { chats: Array<{ id: string }> }).chats.map((entry) => entry.id)
    expect(await listOf(phone)).toEqual([])

    const made = laptop.keep(await codes.POST(laptop.request('/api/devices/codes', { method: 'POST' })))
    expect(made.status).toBe(201)
    const { code } = (await made.json()) as { code: string }
    const joined = phone.keep(await join.POST(phone.request('/api/devices/join', { method: 'POST', body: { code } })))
    expect(joined.status).toBe(200)
    expect(await listOf(phone)).toEqual([chat.id])

    const { browsers } = (await laptop.keep(await devices.GET(laptop.request('/api/devices'))).json()) as { browsers: Array<{ id: string; name: string; current: boolean }> }
    expect(browsers.map((entry) => [entry.name, entry.current])).toEqual([
      ['Safari on macOS', true],
      ['Chrome on Android', false],
    ])
    const revoked = laptop.keep(await device.DELETE(laptop.request(`/api/devices/${browsers[1]!.id}`, { method: 'DELETE' }), { params: Promise.resolve({ id: browsers[1]!.id }) }))
    expect(revoked.status).toBe(200)
    expect(await listOf(phone)).toEqual([])
    expect(await listOf(laptop)).toEqual([chat.id])
    // Beside the sessions and the chats, in a file of its own.
    expect(existsSync(`${dataDir}/devices.db`)).toBe(true)
  })
})
