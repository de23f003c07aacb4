import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { McpServersSection } from './McpServersSection'

/** The table's rows as an operator reads them: each cell's text. */
function rows(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].slice(1).map(([, row]) => [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()))
}

describe('McpServersSection', () => {
  it('lists each server with its state, and a failed one with why', () => {
    const html = renderToStaticMarkup(
      <McpServersSection
        servers={[
          { name: 'files', status: 'ready' },
          { name: 'broken', status: 'failed', error: 'it could not be started: spawn nope ENOENT' },
        ]}
      />,
    )
    expect(rows(html)).toEqual([
      ['files', 'ready'],
      ['broken', 'failed it could not be started: spawn nope ENOENT'],
    ])
  })

  it('says a server starting again after a failure is starting, its error only as its last failure', () => {
    const html = renderToStaticMarkup(<McpServersSection servers={[{ name: 'broken', status: 'starting', error: 'the process exited with code 3' }]} />)
    expect(rows(html)).toEqual([['broken', 'starting Last failure: the process exited with code 3']])
  })

  it('says when mcp.json names no server', () => {
    const html = renderToStaticMarkup(<McpServersSection servers={[]} />)
    expect(html).toContain('None is configured (mcp.json).')
    expect(html).not.toContain('<table')
  })
})
