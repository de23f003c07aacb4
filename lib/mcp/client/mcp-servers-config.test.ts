import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseMcpServers, readMcpServersConfig, resolveMcpConfigPath } from './mcp-servers-config'
import { externalToolName, splitExternalToolName } from './tool-names'

describe('mcp.json', () => {
  it('reads stdio and http entries; a bad entry fails only that server', () => {
    const { servers, invalid } = parseMcpServers({
      file: '/srv/app/mcp.json',
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
      'no-command': expect.stringMatching(/^\/srv\/app\/mcp\.json: .*command/),
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
    writeFileSync(path.join(directory, 'mcp.json'), '{ "tools": {} }')
    expect(readMcpServersConfig({ file: path.join(directory, 'mcp.json') }).invalid[0]!.error).toMatch(/"mcpServers" object .* or a "servers" object \(VS Code\)/)
  })

  it("reads VS Code's format: stdio, http and sse entries by their type", () => {
    const { servers, invalid, disabled } = parseMcpServers({
      file: '/home/me/project/.vscode/mcp.json',
      data: {
        servers: {
          local: { type: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '..' },
          remote: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
          legacy: { type: 'sse', url: 'https://example.test/sse' },
          'no-url': { type: 'sse' },
          'odd-type': { type: 'websocket', url: 'wss://example.test' },
        },
      },
    })
    expect(servers).toEqual([
      { name: 'local', transport: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/home/me/project' },
      { name: 'remote', transport: 'http', url: new URL('https://example.test/mcp'), headers: { Authorization: 'Bearer x' } },
      { name: 'legacy', transport: 'sse', url: new URL('https://example.test/sse'), headers: {} },
    ])
    expect(Object.fromEntries(invalid.map(({ name, error }) => [name, error]))).toEqual({
      'no-url': expect.stringMatching(/^\/home\/me\/project\/\.vscode\/mcp\.json: url: /),
      // An entry with a url and an unknown type is checked as a url entry: its type is the problem.
      'odd-type': expect.stringContaining('type must be "stdio", "http" or "sse"'),
    })
    expect(disabled).toEqual([])
  })

  it("refuses VS Code's inputs, naming the file, and the entries that use them; the others start", () => {
    const { servers, invalid } = parseMcpServers({
      file: '/srv/app/vscode.json',
      data: {
        inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
        servers: {
          remote: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
          local: { command: 'node', args: ['server.js'] },
        },
      },
    })
    expect(servers.map((server) => server.name)).toEqual(['local'])
    expect(invalid).toEqual([
      { name: 'inputs', error: '/srv/app/vscode.json: inputs are not supported: put the value in env or headers' },
      { name: 'remote', error: '/srv/app/vscode.json: it uses ${input:api-key}; inputs are not supported: put the value in env or headers' },
    ])
  })

  it('a file with both mcpServers and servers is one problem, named', () => {
    expect(parseMcpServers({ file: '/srv/app/mcp.json', data: { mcpServers: {}, servers: {} } }).invalid).toEqual([
      { name: 'mcp.json', error: '/srv/app/mcp.json: has both "mcpServers" (Claude Desktop, Cursor) and "servers" (VS Code); keep one of them' },
    ])
  })

  it('an entry with "disabled": true is listed as disabled, not started and not checked', () => {
    const { servers, invalid, disabled } = parseMcpServers({
      file: '/srv/app/mcp.json',
      data: { mcpServers: { off: { command: 'node', disabled: true }, broken: { disabled: true, argz: [] }, on: { command: 'node', disabled: false } } },
    })
    expect(servers).toEqual([{ name: 'on', transport: 'stdio', command: 'node', args: [], env: {} }])
    expect(invalid).toEqual([])
    expect(disabled).toEqual(['off', 'broken'])
  })

  it("an entry's initializeTimeoutMs is kept for that server, and must be a positive whole number", () => {
    const { servers, invalid } = parseMcpServers({
      file: '/srv/app/mcp.json',
      data: { mcpServers: { slow: { command: 'node', initializeTimeoutMs: 120_000 }, bad: { url: 'https://example.test/mcp', initializeTimeoutMs: -1 } } },
    })
    expect(servers).toEqual([{ name: 'slow', transport: 'stdio', command: 'node', args: [], env: {}, initializeTimeoutMs: 120_000 }])
    expect(invalid[0]!.error).toMatch(/initializeTimeoutMs must be a positive whole number/)
  })

  it('an entry\'s "approve" is kept for that server, in both formats, and anything but write, always or never is refused, naming the file', () => {
    const { servers, invalid } = parseMcpServers({
      file: '/home/me/.vscode/mcp.json',
      data: {
        servers: {
          files: { type: 'stdio', command: 'node', approve: 'always' },
          notes: { type: 'http', url: 'https://example.test/mcp', approve: 'never' },
          plain: { command: 'node' },
          sloppy: { command: 'node', approve: 'sometimes' },
          yes: { command: 'node', approve: true },
        },
      },
    })
    expect(servers.map((server) => [server.name, server.approve])).toEqual([
      ['files', 'always'],
      ['notes', 'never'],
      ['plain', undefined],
    ])
    expect(invalid).toEqual([
      { name: 'sloppy', error: expect.stringMatching(/^\/home\/me\/\.vscode\/mcp\.json: approve: approve must be "write" .*"always" .* or "never"$/) },
      { name: 'yes', error: expect.stringContaining('/home/me/.vscode/mcp.json: approve: approve must be') },
    ])
  })

  it('an entry\'s "users" is kept as the people it names, in both formats; a wrong entry is refused, naming the file and the entry', () => {
    const { servers, invalid } = parseMcpServers({
      file: '/srv/app/mcp.json',
      data: {
        mcpServers: {
          files: { command: 'node', users: ['Alice@Example.com', '@corp.example', 'group:eng'] },
          notes: { url: 'https://example.test/mcp', users: [] },
          plain: { command: 'node' },
          typo: { command: 'node', users: ['alice@example.com', 'eng'] },
          text: { url: 'https://example.test/mcp', users: 'alice@example.com' },
          numbers: { command: 'node', users: [7] },
        },
      },
    })
    expect(servers.map((server) => [server.name, server.users])).toEqual([
      ['files', { emails: new Set(['alice@example.com']), domains: new Set(['corp.example']), groups: new Set(['eng']) }],
      ['notes', { emails: new Set(), domains: new Set(), groups: new Set() }],
      ['plain', undefined],
    ])
    expect(invalid).toEqual([
      { name: 'typo', error: '/srv/app/mcp.json: users: "eng" is neither an address (alice@example.com), a domain (@example.com) nor a group (group:eng)' },
      { name: 'text', error: expect.stringMatching(/^\/srv\/app\/mcp\.json: users: users must be a list of addresses/) },
      { name: 'numbers', error: expect.stringMatching(/^\/srv\/app\/mcp\.json: users\.0: /) },
    ])
  })

  it("keeps a url entry's oauth client and userVariables, and refuses them when they are wrong, naming the file", () => {
    const { servers, invalid } = parseMcpServers({
      file: '/srv/app/mcp.json',
      data: {
        mcpServers: {
          github: { url: 'https://api.example.test/mcp', oauth: { clientId: 'chat', clientSecret: 's3cret', scope: 'repo read:org' } },
          linear: { url: 'https://linear.example.test/mcp', headers: { Authorization: 'Bearer ${LINEAR_KEY}' }, userVariables: { LINEAR_KEY: { title: 'Your Linear API key' } } },
          undeclared: { url: 'https://x.example.test/mcp', headers: { Authorization: 'Bearer ${KEY}' } },
          lower: { url: 'https://x.example.test/mcp', userVariables: { key: { title: 'k' } } },
          'no-title': { url: 'https://x.example.test/mcp', userVariables: { KEY: {} } },
          'empty-client': { url: 'https://x.example.test/mcp', oauth: { clientId: '' } },
          'odd-scope': { url: 'https://x.example.test/mcp', oauth: { clientId: 'c', scope: 'a  b' } },
          'oauth-typo': { url: 'https://x.example.test/mcp', oauth: { client_id: 'c' } },
        },
      },
    })
    expect(servers).toEqual([
      { name: 'github', transport: 'http', url: new URL('https://api.example.test/mcp'), headers: {}, oauth: { clientId: 'chat', clientSecret: 's3cret', scope: 'repo read:org' } },
      {
        name: 'linear',
        transport: 'http',
        url: new URL('https://linear.example.test/mcp'),
        headers: { Authorization: 'Bearer ${LINEAR_KEY}' },
        userVariables: { LINEAR_KEY: { title: 'Your Linear API key' } },
      },
    ])
    expect(Object.fromEntries(invalid.map(({ name, error }) => [name, error]))).toEqual({
      undeclared: '/srv/app/mcp.json: headers use ${KEY}, which userVariables does not declare',
      lower: expect.stringContaining('capitals, digits and underscores'),
      'no-title': expect.stringContaining('userVariables.KEY.title'),
      'empty-client': '/srv/app/mcp.json: oauth.clientId: must not be empty',
      'odd-scope': expect.stringContaining('separated by single spaces'),
      'oauth-typo': expect.stringMatching(/^\/srv\/app\/mcp\.json: .*client_id/),
    })
  })

  it('every error names the file that was read, as MCP_CONFIG named it', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'mcp-config-'))
    const file = resolveMcpConfigPath({ env: { MCP_CONFIG: 'conf/servers.json' }, cwd: directory })
    expect(readMcpServersConfig({ file, required: true }).invalid[0]!.error).toBe(`${file} does not exist`)
    mkdirSync(path.dirname(file))
    for (const [text, expected] of [
      ['{', `${file} is not valid JSON`],
      ['[]', `${file}: expected a JSON object`],
      ['{ "mcpServers": { "x": { "argz": [] } } }', `${file}: command: `],
      ['{ "servers": {}, "inputs": [{ "id": "k" }] }', `${file}: inputs are not supported`],
    ]) {
      writeFileSync(file, text)
      const config = readMcpServersConfig({ file, required: true })
      expect(config.path).toBe(file)
      expect(config.invalid[0]!.error.startsWith(expected), `${text}: ${config.invalid[0]!.error}`).toBe(true)
    }
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
