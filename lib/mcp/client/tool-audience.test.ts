import { describe, expect, it } from 'vitest'
import type { Person } from '../../http'
import { parseMcpServers } from './mcp-servers-config'
import { createToolAudience } from './tool-audience'

const config = parseMcpServers({
  file: '/srv/app/mcp.json',
  data: {
    mcpServers: {
      files: { command: 'node' },
      notes: { url: 'https://example.test/mcp' },
      team: { command: 'node', users: ['bob@example.com', '@corp.example', 'group:ops'] },
      quiet: { url: 'https://example.test/quiet', users: [] },
      broken: { command: 'node', users: ['nobody'] },
      off: { command: 'node', disabled: true },
    },
  },
})
const person = (email: string, { groups = [] as string[], isAdmin = false, emailVerified = true } = {}): Person => ({ email, groups, isAdmin, emailVerified })
const alice = person('alice@example.com', { isAdmin: true })
const bob = person('bob@example.com', { groups: ['eng'] })
const dave = person('dave@corp.example')
const erin = person('erin@example.com', { groups: ['ops'] })
const mallory = person('bob@example.com', { emailVerified: false })

describe('who may use an external server’s tools', () => {
  it('without sign-in, everyone may use every server, users or not', () => {
    const audience = createToolAudience({ config, signIn: false })
    for (const server of ['files', 'notes', 'team', 'quiet', 'broken', 'off', 'nowhere']) expect(audience.admits(server, undefined)).toBe(true)
  })

  it('with sign-in: the people users names, by address, domain or group, and every admin', () => {
    const audience = createToolAudience({ config, signIn: true })
    expect([alice, bob, dave, erin].map((who) => audience.admits('team', who))).toEqual([true, true, true, true])
    expect(audience.admits('team', person('carol@example.com', { groups: ['eng'] }))).toBe(false)
    // An address the provider did not verify names nobody.
    expect(audience.admits('team', mallory)).toBe(false)
    // An empty users list leaves the server to the admins.
    expect([alice, bob].map((who) => audience.admits('quiet', who))).toEqual([true, false])
  })

  it('with sign-in and no users: a stdio server is for admins only, a URL server for everyone signed in', () => {
    const audience = createToolAudience({ config, signIn: true })
    expect([alice, bob].map((who) => audience.admits('files', who))).toEqual([true, false])
    expect([alice, bob].map((who) => audience.admits('notes', who))).toEqual([true, true])
  })

  it('with sign-in: entries mcp.json refused or turned off, and unknown names, are for admins only; nobody signed in gets nothing', () => {
    const audience = createToolAudience({ config, signIn: true })
    for (const server of ['broken', 'off', 'nowhere']) expect([alice, bob].map((who) => audience.admits(server, who)), server).toEqual([true, false])
    for (const server of ['files', 'notes', 'team']) expect(audience.admits(server, undefined)).toBe(false)
  })
})
