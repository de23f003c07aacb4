import { describe, expect, it } from 'vitest'
import { parseComposerText, slashCommandTools } from './slash-command'

describe('slash commands in the composer', () => {
  it('are /<tool> <json object>, or /<tool> alone', () => {
    expect(parseComposerText('/everything__echo {"message":"hi"}')).toEqual({ kind: 'command', name: 'everything__echo', arguments: { message: 'hi' } })
    expect(parseComposerText('  /basic-react__get-time  ')).toEqual({ kind: 'command', name: 'basic-react__get-time', arguments: {} })
    expect(parseComposerText('/a {\n "b": [1, 2]\n}')).toEqual({ kind: 'command', name: 'a', arguments: { b: [1, 2] } })
  })

  it('bad JSON or arguments that are not an object are refused with a message', () => {
    expect(parseComposerText('/everything__echo {message: hi}')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('not valid JSON') })
    expect(parseComposerText('/everything__echo [1]')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('must be a JSON object') })
    expect(parseComposerText('/everything__echo "hi"')).toMatchObject({ kind: 'invalid' })
  })

  it('anything else is a message', () => {
    expect(parseComposerText('Book a flight from NYC to LAX')).toEqual({ kind: 'message' })
    expect(parseComposerText('/ not a command')).toEqual({ kind: 'message' })
    expect(parseComposerText('a/b {}')).toEqual({ kind: 'message' })
  })
})

describe('slashCommandTools', () => {
  it('leaves out the tools only their MCP App may call', () => {
    const tools = [
      { name: 'echo', description: '', source: 'plugin' },
      { name: 'monitor__poll-system-stats', description: '', source: 'mcp:monitor', appOnly: true },
      { name: 'monitor__get-system-stats', description: '', source: 'mcp:monitor' },
    ]
    expect(slashCommandTools(tools).map((tool) => tool.name)).toEqual(['echo', 'monitor__get-system-stats'])
  })
})
