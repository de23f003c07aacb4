import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createPluginRegistry } from '../plugins'
import { useChat } from './use-chat'

function Probe() {
  const { state, ready, renders } = useChat({ registry: createPluginRegistry() })
  return (
<p>{`${state.status}|${String(ready)}|${state.entries.length}|${Object.keys(renders).length}`}</p>
  )
}

describe('useChat', () => {
  it('renders the empty, not-yet-loaded chat on the server without touching the network', () => {
    expect(typeof window).toBe('undefined')
    expect(renderToString(<Probe />)).toContain('idle|false|0|0')
  })
})
