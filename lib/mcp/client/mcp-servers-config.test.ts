import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseMcpServers, readMcpServersConfig, resolveMcpConfigPath } from './mcp-servers-config'
import { externalToolName, splitExternalToolName } from './tool-names'

describe('mcp.json', () => {
  it('reads stdio and http entries; a bad entry fails only that server', () => {
    const { servers, invalid } = parseMcpServers({
      baseDirectory: '/srv/app',
      data: {
        mcpServers: {
          everything: { command: 'node', args: ['server.js', 'stdio'], env: { A: '1' }, cwd: 'servers' },
          remote: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
          'no-command': { args: [] },
          'bad-url': { url: 'ftp://example.test' },
          'has__two': { command: 'node' },
          typo: { command: 'node', argz: [] },
          numbers: { command: 'node', args: [1, 2] },
        },
      },
    })
    expect(servers).toEqual([
      { name: 'everything', transport: 'stdio', command: 'node', args: ['server.js', 'stdio'], env: { A: '1' }, cwd: '/srv/app/servers' },
      { name: 'remote', transport: 'http', url: new URL('https://example.test/mcp'), headers: { Authorization: 'Bearer x' } },
    ])
    expect(Object.fromEntries(invalid.map(({ name, error }) => [name, error]))).toEqual({
      'no-command': expect.stringContaining('command'),
      'bad-url': expect.stringContaining('http or https'),
      has__two: expect.stringContaining('single underscores'),
      typo: expect.stringContaining('argz'),
      numbers: expect.stringContaining('args.0'),
    })
  })

  it('a missing file is no servers; a broken file is one problem, named', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'mcp-config-'))
    expect(readMcpServersConfig({ file: path.join(directory, 'mcp.json') })).toEqual({ servers: [], invalid: [] })
    expect(readMcpServersConfig({ file: path.join(directory, 'named.json'), required: true }).invalid[0]!.error).toMatch(/does not exist/)
    writeFileSync(path.join(directory, 'mcp.json'), '{ "mcpServers": ')
    expect(readMcpServersConfig({ file: path.join(directory, 'mcp.json') }).invalid[0]!.error).toMatch(/not valid JSON/)
    writeFileSync(path.join(directory, 'mcp.json'), '{ "servers": {} }')
    expect(readMcpServersConfig({ file: path.join(directory, 'mcp.json') }).invalid[0]!.error).toMatch(/mcpServers/)
  })

  it('MCP_CONFIG wins over mcp.json beside the start directory, both made absolute', () => {
    expect(resolveMcpConfigPath({ env: {}, cwd: '/srv/app' })).toBe('/srv/app/mcp.json')
    expect(resolveMcpConfigPath({ env: { MCP_CONFIG: 'conf/servers.json' }, cwd: '/srv/app' })).toBe('/srv/app/conf/servers.json')
    expect(resolveMcpConfigPath({ env: { MCP_CONFIG: '/etc/mcp.json' }, cwd: '/srv/app' })).toBe('/etc/mcp.json')
  })
})

describe('external tool names', () => {
  it('are <server>__<tool>, hyphens kept, and split back', () => {
    expect(externalToolName({ server: 'everything', tool: 'trigger-long-running-operation' })).toBe('everything__trigger-long-running-operation')
    expect(externalToolName({ server: 'basic-react', tool: 'get-time' })).toBe('basic-react__get-time')
    expect(splitExternalToolName('basic-react__get-time')).toEqual({ server: 'basic-react', tool: 'get-time' })
    expect(splitExternalToolName('my_server__do__it')).toEqual({ server: 'my_server', tool: 'do__it' })
    expect(splitExternalToolName('book_flight')).toBeUndefined()
  })

  it('a tool whose name a model would refuse is not offered', () => {
    expect(externalToolName({ server: 'files', tool: 'read.file' })).toBeUndefined()
    expect(externalToolName({ server: 'files', tool: 'x'.repeat(60) })).toBeUndefined()
  })
})
