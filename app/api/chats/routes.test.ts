import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useAppDataDir } from '@/lib/testing/app-data-dir'

/*
 * The routes as Next runs them, wired to the app's instance (lib/server/conversations-instance.ts):
 * the chats in DATA_DIR's conversations.db, the identity cookie the chat route gives.
 */
const dataDir = useAppDataDir('chats-routes-')

const params = (id: string) => ({ params: Promise.resolve({ id }) })

describe('the /api/chats routes', () => {
  it('create, list, open, rename, export, delete and restore a chat of the browser that made it', async () => {
    const chats = await import('./route')
    const chat = await import('./[id]/route')
    const restore = await import('./[id]/restore/route')
    const exported = await import('./[id]/export/route')

    const created = await chats.POST(new Request('http://localhost/api/chats', { method: 'POST' }))
    expect(created.status).toBe(201)
    const cookie = created.headers.get('set-cookie')!.split(';')[0]!
    const { chat: summary } = (await created.json()) as { chat: { id: string } }
    const as = (url: string, init: RequestInit = {}) => new Request(`http://localhost${url}`, { ...init, headers: { cookie, ...init.headers } })

    expect(await (await chats.GET(as('/api/chats'))).json()).toEqual({ chats: [expect.objectContaining({ id: summary.id, title: '' })] })
    const renamed = await chat.PATCH(as(`/api/chats/${summary.id}`, { method: 'PATCH', body: JSON.stringify({ title: 'Trains' }), headers: { 'content-type': 'application/json' } }), params(summary.id))
    expect(await renamed.json()).toEqual({ id: summary.id, title: 'Trains' })
    expect(await (await chat.GET(as(`/api/chats/${summary.id}`), params(summary.id))).json()).toMatchObject({ chat: { id: summary.id, title: 'Trains', turns: [] } })
    expect(await (await exported.GET(as(`/api/chats/${summary.id}/export?format=md`), params(summary.id))).text()).toMatch(/^# Trains\n/)

    expect((await chat.DELETE(as(`/api/chats/${summary.id}`, { method: 'DELETE' }), params(summary.id))).status).toBe(200)
    expect(await (await chats.GET(as('/api/chats'))).json()).toEqual({ chats: [] })
    expect((await restore.POST(as(`/api/chats/${summary.id}/restore`, { method: 'POST' }), params(summary.id))).status).toBe(200)

    // Another browser (no cookie) sees none of it.
    const stranger = await chat.GET(new Request(`http://localhost/api/chats/${summary.id}`), params(summary.id))
    expect(stranger.status).toBe(404)
    // Beside the sessions, in a file of its own.
    expect(existsSync(join(dataDir, 'conversations.db'))).toBe(true)
  })
})
