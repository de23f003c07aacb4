import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { methodOf, routeOf, ROUTES } from './http-route'

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../app')

/** Every route of `app/` as its URL pattern: route groups `(chats)` left out, `[id]` kept. */
function appRoutes(directory = app, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name}`
      return appRoutes(path.join(directory, entry.name), prefix + segment)
    }
    return /^(route|page)\.tsx?$/.test(entry.name) ? [prefix || '/'] : []
  })
}

describe('routeOf', () => {
  it('knows every route of app/, so that a new one is not logged and counted as "other"', () => {
    expect([...ROUTES].sort()).toEqual([...new Set(appRoutes())].sort())
  })

  it('names a request by its route, never by the ids in its path or its query', () => {
    expect(routeOf('/api/chat')).toBe('/api/chat')
    expect(routeOf('/api/chats?cursor=abc')).toBe('/api/chats')
    expect(routeOf('/api/chats/0a1b2c')).toBe('/api/chats/[id]')
    expect(routeOf('/api/chats/0a1b2c/export')).toBe('/api/chats/[id]/export')
    expect(routeOf('/api/chats/0a1b2c/waiting')).toBe('/api/chats/[id]/waiting')
    expect(routeOf('/api/devices/codes')).toBe('/api/devices/codes')
    expect(routeOf('/api/devices/b-123')).toBe('/api/devices/[id]')
    expect(routeOf('/api/mcp-apps/frame/t.k.e.n')).toBe('/api/mcp-apps/frame/[ticket]')
    expect(routeOf('/c/chat-1')).toBe('/c/[id]')
    expect(routeOf('/_next/static/chunks/main.js')).toBe('/_next/*')
    expect(routeOf('/favicon.ico')).toBe('other')
    expect(routeOf('/api/chats//export')).toBe('other')
    expect(routeOf('/wp-login.php?x=1')).toBe('other')
  })

  it('keeps methods to the known ones', () => {
    expect(methodOf('POST')).toBe('POST')
    expect(methodOf('BREW')).toBe('_OTHER')
    expect(methodOf(undefined)).toBe('_OTHER')
  })
})
