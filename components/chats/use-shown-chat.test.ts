import { describe, expect, it } from 'vitest'
import { chatOfPath, showChat } from './use-shown-chat'

describe('which chat the address shows', () => {
  it('reads the chat of `/c/<id>`, none of `/`', () => {
    expect(chatOfPath('/')).toBeUndefined()
    expect(chatOfPath('/c/Ae4FKgOOn0wAXkC-P8s2tQ')).toBe('Ae4FKgOOn0wAXkC-P8s2tQ')
    expect(chatOfPath('/c/a%20b')).toBe('a b')
    // Not an id (its escape is broken): looked up as it is, and not found.
    expect(chatOfPath('/c/%E0%A4%A')).toBe('%E0%A4%A')
  })

  it('keeps a chat made at `/` when its address comes to name it, and shows a new chat at `/` again', () => {
    const fresh = showChat(undefined, undefined)
    expect(fresh).toEqual({ view: 1, id: undefined, open: undefined })
    // Its first message made it (`useShownChat`'s `made`), then the address was replaced.
    const made = { ...fresh, id: 'A' }
    expect(showChat(made, 'A')).toBe(made)
    // New chat, by any way: another view, with nothing to load.
    expect(showChat(made, undefined)).toEqual({ view: 2, id: undefined, open: undefined })
  })

  it('shows every other chat in a view of its own, loaded by its id', () => {
    const fresh = showChat(undefined, undefined)
    // Back from a new chat to the chat before it.
    const back = showChat(fresh, 'A')
    expect(back).toEqual({ view: 2, id: 'A', open: 'A' })
    expect(showChat(back, 'A')).toBe(back)
    expect(showChat(back, 'B')).toEqual({ view: 3, id: 'B', open: 'B' })
    expect(showChat(back, undefined)).toEqual({ view: 3, id: undefined, open: undefined })
  })
})
