import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { readInstanceName } from './instance-name'

describe('the instance’s name', () => {
  it('is INSTANCE_NAME when set, trimmed and at most 200 characters', () => {
    expect(readInstanceName({ INSTANCE_NAME: '  pod-7  ', PORT: '4000' })).toBe('pod-7')
    expect(readInstanceName({ INSTANCE_NAME: 'x'.repeat(300) })).toBe('x'.repeat(200))
  })

  it('is otherwise the host and the port it serves: the same after a restart, different for another instance on the host', () => {
    expect(readInstanceName({ PORT: '4000' })).toBe(`${hostname()}:4000`)
    expect(readInstanceName({ PORT: '4000' })).toBe(readInstanceName({ PORT: '4000', INSTANCE_NAME: ' ' }))
    expect(readInstanceName({ PORT: '4001' })).not.toBe(readInstanceName({ PORT: '4000' }))
    expect(readInstanceName({})).toBe(`${hostname()}:3000`)
  })
})
