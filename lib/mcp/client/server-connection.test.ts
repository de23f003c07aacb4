import { describe, expect, it } from 'vitest'
import { McpServerConnection, type ExternalCallChannel } from './server-connection'

const channel = (): ExternalCallChannel => ({ elicit: () => Promise.reject(new Error('unused')), sample: () => Promise.reject(new Error('unused')), log: () => undefined })

describe("which call a server's request belongs to", () => {
  it('over Streamable HTTP, the call the request names, and no other; one sent outside any call is refused', () => {
    const connection = new McpServerConnection('remote')
    connection.relatesRequests = true
    const [a, b] = [channel(), channel()]
    const one = connection.openCall(a)
    const two = connection.openCall(b)
    expect(connection.routeRequest(two.id)).toBe(b)
    expect(connection.routeRequest(one.id)).toBe(a)
    expect(() => connection.routeRequest(undefined)).toThrow("remote sent this request outside any of the chat's calls to it")
    expect(connection.routeLog(undefined)).toBeUndefined()
    two.close()
    expect(() => connection.routeRequest(two.id)).toThrow("The chat's call to remote that this request belongs to has ended.")
    // Alone in flight, a call still gets only what names it.
    expect(() => connection.routeRequest(undefined)).toThrow(/outside any/)
  })

  it('over stdio, the one call in flight; with several, refused rather than sent to the wrong chat', () => {
    const connection = new McpServerConnection('local')
    expect(() => connection.routeRequest(undefined)).toThrow('The chat has no call to local in flight')
    const a = channel()
    const one = connection.openCall(a)
    expect(connection.routeRequest(undefined)).toBe(a)
    expect(connection.routeLog(undefined)).toBe(a)
    const two = connection.openCall(channel())
    expect(() => connection.routeRequest(undefined)).toThrow('The chat has 2 calls to local in flight and cannot tell which one this request belongs to.')
    expect(connection.routeLog(undefined)).toBeUndefined()
    one.close()
    two.close()
    expect(connection.calls.size).toBe(0)
  })
})
