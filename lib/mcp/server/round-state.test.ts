import type { ServerContext } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { createRoundStateCodec } from './round-state'

const SECRET = 'a-state-secret-of-at-least-32-bytes'
const callerOf = (clientId: string) => ({ mcpReq: { method: 'tools/call' }, http: { authInfo: { clientId } } }) as unknown as ServerContext
const bind = (ctx: ServerContext) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`
const STATE = {
  toolName: 'pick_card',
  callId: 'mcp_1',
  argumentsDigest: 'digest',
  reported: 3,
  journal: [{ seq: 1, kind: 'step' as const, name: 'before', value: { secret: { rank: 'Q', suit: 'hearts' } } }],
}

describe('createRoundStateCodec', () => {
  it('round-trips the journal, each state with an id of its own', async () => {
    const codec = createRoundStateCodec({ secret: SECRET, ttlSeconds: 60, bind })
    const wire = await codec.mint(STATE, callerOf('a'))
    const again = await codec.mint(STATE, callerOf('a'))
    const read = await codec.verify(wire, callerOf('a'))
    expect(read).toEqual({ id: expect.any(String), ...STATE })
    expect((await codec.verify(again, callerOf('a'))).id).not.toBe(read.id)
  })

  it('hides the journal: nothing of it can be read from the wire', async () => {
    const wire = await createRoundStateCodec({ secret: SECRET, ttlSeconds: 60, bind }).mint(STATE, callerOf('a'))
    const decoded = Buffer.from(wire.slice(3).split('.')[0]!, 'base64url').toString('utf8')
    expect(decoded).not.toMatch(/hearts|before|pick_card|mcp_1/)
  })

  it('refuses another caller, an expired state, another secret and a changed byte', async () => {
    const codec = createRoundStateCodec({ secret: SECRET, ttlSeconds: 60, bind })
    const wire = await codec.mint(STATE, callerOf('a'))
    await expect(codec.verify(wire, callerOf('b'))).rejects.toThrow('another caller')
    const expired = await createRoundStateCodec({ secret: SECRET, ttlSeconds: -1, bind }).mint(STATE, callerOf('a'))
    await expect(codec.verify(expired, callerOf('a'))).rejects.toThrow('expired')
    await expect(createRoundStateCodec({ secret: `${SECRET}!`, ttlSeconds: 60, bind }).verify(wire, callerOf('a'))).rejects.toThrow('another secret')
    const flipped = `${wire.slice(0, 10)}${wire[10] === 'A' ? 'B' : 'A'}${wire.slice(11)}`
    await expect(codec.verify(flipped, callerOf('a'))).rejects.toThrow()
  })

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createRoundStateCodec({ secret: 'short', ttlSeconds: 60, bind })).toThrow(RangeError)
  })
})
