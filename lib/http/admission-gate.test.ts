import http from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { Admission } from './admission'
import { installAdmissionGate } from './admission-gate'

// Patches http.Server.prototype for this test file's process only (vitest isolates files).
installAdmissionGate({ admission: { pressing: (address: string) => address.startsWith('10.9.') } as Admission, trustProxy: true, perTurn: 1 })

const fake = (method: string, url: string, address: string) =>
  [{ method, url, headers: { 'x-forwarded-for': `203.0.113.1, ${address}` }, destroyed: false }, { destroyed: false }] as unknown as [http.IncomingMessage, http.ServerResponse]

describe('installAdmissionGate', () => {
  it('hands a pressing address’s chat requests to the server one per turn of the event loop, in order, and everything else at once', async () => {
    const server = http.createServer()
    const seen: string[] = []
    server.on('request', (request: http.IncomingMessage) => seen.push(String(request.headers['x-forwarded-for']).split(', ')[1]))
    for (const address of ['10.9.0.1', '10.9.0.2', '10.9.0.3']) server.emit('request', ...fake('POST', '/api/chat', address))
    server.emit('request', ...fake('POST', '/api/chat', '10.1.0.1'))
    server.emit('request', ...fake('GET', '/api/health', '10.9.0.4'))
    server.emit('request', ...fake('GET', '/api/mcp', '10.9.0.5'))
    expect(seen).toEqual(['10.1.0.1', '10.9.0.4', '10.9.0.5'])
    await nextTurn()
    expect(seen.slice(3)).toEqual(['10.9.0.1'])
    await nextTurn()
    await nextTurn()
    expect(seen.slice(3)).toEqual(['10.9.0.1', '10.9.0.2', '10.9.0.3'])
  })

  it('drops a held request whose client went away', async () => {
    const server = http.createServer()
    const seen: string[] = []
    server.on('request', (request: http.IncomingMessage) => seen.push(String(request.headers['x-forwarded-for'])))
    const [request, response] = fake('POST', '/api/chat', '10.9.1.1')
    server.emit('request', request, response)
    ;(request as { destroyed: boolean }).destroyed = true
    await nextTurn()
    await nextTurn()
    expect(seen).toEqual([])
  })
})
