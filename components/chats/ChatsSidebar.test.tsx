// @vitest-environment happy-dom
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { Window as HappyWindow } from 'happy-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHATS_CHANGED_EVENT } from './chats-changed'
import { ChatsSidebar } from './ChatsSidebar'
import { serveChatsApi, UNDO_MS, type ChatsApiInProcess } from './testing/chats-api-in-process'

/*
 * The sidebar against the real chats API (handleChatsRequest over the memory store) answering
 * its fetches in-process: what it lists, renames, deletes and restores is what the server holds.
 */

// What the page waits for comes when the answers do; a busy machine may take more than 1 s.
configure({ asyncUtilTimeout: 10_000 })

let api: ChatsApiInProcess
const navigate = vi.fn<(href: string) => void>()

beforeEach(async () => {
  api = await serveChatsApi()
  navigate.mockClear()
})
afterEach(async () => {
  cleanup()
  await api.close()
})

function renderSidebar(currentId?: string) {
  return render(
    <ChatsSidebar currentId={currentId} navigate={navigate}>
      <main data-chat>
        <header>the chat</header>
        <textarea aria-label="Message" />
      </main>
    </ChatsSidebar>,
  )
}

const nav = () => screen.getByRole('navigation', { name: 'Chats' })
const entryLinks = () => within(nav()).getAllByRole('link')
/** What the server lists for this browser, newest first. */
const titlesOnServer = async () => (await api.run(() => api.conversations.list(api.owner(), {}))).chats.map((chat) => chat.title)

async function makeChats(...titles: Array<string | undefined>): Promise<string[]> {
  const ids: string[] = []
  for (const title of titles) ids.push(await api.create(title))
  return ids
}

describe('the sidebar of chats', () => {
  it('lists the chats newest first as links to /c/<id>, the open one current, untitled ones as "New chat", waiting ones said so', async () => {
    const [trains, untitled, booking] = await makeChats('Trains to Lyon', undefined, 'Book a flight')
    await api.makeWaiting(booking!)
    renderSidebar(untitled)

    await waitFor(() => expect(entryLinks()).toHaveLength(3))
    expect(entryLinks().map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Book a flight — waiting for your answer', `/c/${booking}`],
      ['New chat', `/c/${untitled}`],
      ['Trains to Lyon', `/c/${trains}`],
    ])
    expect(entryLinks().map((link) => link.getAttribute('aria-current'))).toEqual([null, 'page', null])
    // New chat, to `/`, is the sidebar's first link, outside the list of chats.
    expect(screen.getAllByRole('link', { name: 'New chat' }).map((link) => link.getAttribute('href'))).toEqual(['/', `/c/${untitled}`])
  })

  it('reads the list again when the chat page says the chats changed, and pages with More chats', async () => {
    await makeChats('First')
    renderSidebar()
    await waitFor(() => expect(entryLinks()).toHaveLength(1))

    const second = await api.create('Second')
    await act(async () => {
      window.dispatchEvent(new CustomEvent(CHATS_CHANGED_EVENT, { detail: { id: second } }))
    })
    await waitFor(() => expect(entryLinks().map((link) => link.textContent)).toEqual(['Second', 'First']))

    for (let index = 3; index <= 52; index++) await api.create(`Chat ${index}`)
    await act(async () => {
      window.dispatchEvent(new CustomEvent(CHATS_CHANGED_EVENT, { detail: { id: second } }))
    })
    // A refresh reads as many as are listed, at least a page: 50 of the 52, then the rest on request.
    await waitFor(() => expect(entryLinks()[0]).toHaveProperty('textContent', 'Chat 52'))
    expect(entryLinks()).toHaveLength(50)
    fireEvent.click(screen.getByRole('button', { name: 'More chats' }))
    await waitFor(() => expect(entryLinks()).toHaveLength(52))
    expect(entryLinks().slice(-2).map((link) => link.textContent)).toEqual(['Second', 'First'])
    expect(screen.queryByRole('button', { name: 'More chats' })).toBeNull()
    expect(api.requests.filter((request) => request.startsWith('GET /api/chats'))).toEqual([
      'GET /api/chats?limit=50',
      'GET /api/chats?limit=50',
      'GET /api/chats?limit=50',
      expect.stringMatching(/^GET \/api\/chats\?limit=50&cursor=./),
    ])
  })

  it('renames by keyboard: the menu opens on ↓, Enter saves, Escape cancels, and the focus comes back to the entry', async () => {
    const [id] = await makeChats('Trains')
    renderSidebar()
    await waitFor(() => expect(entryLinks()).toHaveLength(1))

    const menuButton = screen.getByRole('button', { name: 'Options for Trains' })
    expect(menuButton.getAttribute('aria-haspopup')).toBe('menu')
    fireEvent.keyDown(menuButton, { key: 'ArrowDown' })
    const menu = await screen.findByRole('menu', { name: 'Options for Trains' })
    expect(menuButton.getAttribute('aria-expanded')).toBe('true')
    const items = within(menu).getAllByRole('menuitem')
    expect(items.map((item) => item.textContent)).toEqual(['Rename', 'Download as Markdown', 'Download as JSON', 'Delete'])
    expect(items.slice(1, 3).map((item) => item.getAttribute('href'))).toEqual([`/api/chats/${id}/export?format=md`, `/api/chats/${id}/export?format=json`])
    await waitFor(() => expect(document.activeElement).toBe(items[0]))
    fireEvent.keyDown(menu, { key: 'ArrowUp' })
    expect(document.activeElement).toBe(items[3])
    fireEvent.keyDown(menu, { key: 'Home' })
    expect(document.activeElement).toBe(items[0])
    fireEvent.keyDown(menu, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(document.activeElement).toBe(menuButton)

    fireEvent.keyDown(menuButton, { key: 'ArrowDown' })
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const field = await screen.findByRole('textbox', { name: 'Rename Trains' })
    await waitFor(() => expect(document.activeElement).toBe(field))
    fireEvent.change(field, { target: { value: 'Not this' } })
    fireEvent.keyDown(field, { key: 'Escape' })
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Trains' })))
    expect(await titlesOnServer()).toEqual(['Trains'])

    fireEvent.keyDown(screen.getByRole('button', { name: 'Options for Trains' }), { key: 'ArrowDown' })
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const again = await screen.findByRole('textbox', { name: 'Rename Trains' })
    fireEvent.change(again, { target: { value: '  Night train to Vienna  ' } })
    fireEvent.keyDown(again, { key: 'Enter' })
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Night train to Vienna' })))
    expect(await titlesOnServer()).toEqual(['Night train to Vienna'])
  })

  it('shows the server’s refusal of a title, and keeps the field', async () => {
    await makeChats('Trains')
    renderSidebar()
    fireEvent.keyDown(await screen.findByRole('button', { name: 'Options for Trains' }), { key: 'ArrowDown' })
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const field = await screen.findByRole('textbox', { name: 'Rename Trains' })
    fireEvent.change(field, { target: { value: '   ' } })
    fireEvent.keyDown(field, { key: 'Enter' })
    expect((await screen.findByRole('alert')).textContent).toBe('The request is not valid: title: A title needs at least one character.')
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(await titlesOnServer()).toEqual(['Trains'])
  })

  it('deletes with undo: the entry goes, "Chat deleted · Undo" takes the focus, and Undo brings it back from the server', async () => {
    const [older, newer] = await makeChats('Older', 'Newer')
    renderSidebar(older)
    await waitFor(() => expect(entryLinks()).toHaveLength(2))

    fireEvent.keyDown(screen.getByRole('button', { name: 'Options for Older' }), { key: 'ArrowDown' })
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    await waitFor(() => expect(entryLinks().map((link) => link.textContent)).toEqual(['Newer']))
    const status = screen.getByRole('status')
    await waitFor(() => expect(status.textContent).toBe('Chat deletedUndo'))
    const undo = within(status).getByRole('button', { name: 'Undo: restore Older' })
    expect(document.activeElement).toBe(undo)
    expect(await titlesOnServer()).toEqual(['Newer'])
    // It was the open chat: the page goes to a new one.
    expect(navigate).toHaveBeenCalledWith('/')

    fireEvent.click(undo)
    await waitFor(() => expect(entryLinks().map((link) => link.getAttribute('href'))).toEqual([`/c/${newer}`, `/c/${older}`]))
    expect(status.textContent).toBe('Chat restored')
    // The restored entry has the focus the Undo button had.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Older' })))
    expect(await titlesOnServer()).toEqual(['Newer', 'Older'])
  })

  it('takes the undo away when the server can no longer restore, and gives its focus to New chat', async () => {
    await makeChats('Gone soon')
    renderSidebar()
    await waitFor(() => expect(entryLinks()).toHaveLength(1))
    // The server's clock is the undo time behind: its `restorableUntil` is now.
    api.clock.now = Date.now() - UNDO_MS
    fireEvent.keyDown(screen.getByRole('button', { name: 'Options for Gone soon' }), { key: 'ArrowDown' })
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    await waitFor(() => expect(screen.getByText('No chats yet.')).toBeTruthy())
    // The undo came with the focus and went at once, the focus given to New chat.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'New chat' })))
    expect(screen.getByRole('status').textContent).toBe('')
    expect(await titlesOnServer()).toEqual([])
    expect(navigate).not.toHaveBeenCalled()
  })
})

describe('at phone width, the drawer', () => {
  beforeEach(() => {
    (window as unknown as HappyWindow).happyDOM.setViewport({ width: 390, height: 844 })
  })
  afterEach(() => {
    (window as unknown as HappyWindow).happyDOM.setViewport({ width: 1024, height: 768 })
  })

  it('opens from the Chats button with the focus inside, leaves the chat inert, and Escape or Close gives the focus back', async () => {
    const [first, open] = await makeChats('First', 'Open one')
    renderSidebar(open)
    const opener = screen.getByRole('button', { name: 'Chats' })
    expect(opener.getAttribute('aria-expanded')).toBe('false')
    const drawer = document.getElementById(opener.getAttribute('aria-controls')!)!
    expect(drawer).toBeTruthy()
    const chat = screen.getByRole('textbox', { name: 'Message' }).closest('[inert], div')!

    opener.focus()
    fireEvent.click(opener)
    expect(opener.getAttribute('aria-expanded')).toBe('true')
    await waitFor(() => expect(entryLinks()).toHaveLength(2))
    // The open chat's entry takes the focus once it is listed; until then the drawer's first link.
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toMatch(/^\/(c\/.+)?$/))
    expect(drawer.contains(document.activeElement)).toBe(true)
    expect(chat.hasAttribute('inert')).toBe(true)
    expect(opener.hasAttribute('inert')).toBe(true)

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(opener.getAttribute('aria-expanded')).toBe('false')
    await waitFor(() => expect(document.activeElement).toBe(opener))
    expect(chat.hasAttribute('inert')).toBe(false)

    fireEvent.click(opener)
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toBe(`/c/${open}`))
    // Escape in an entry's menu closes the menu, not the drawer.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Options for First' }), { key: 'ArrowDown' })
    fireEvent.keyDown(await screen.findByRole('menu'), { key: 'Escape' })
    expect(opener.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Close chats' }))
    await waitFor(() => expect(document.activeElement).toBe(opener))
    expect(screen.queryByRole('button', { name: 'Close chats' })).toBeNull()
    expect(first).toBeTruthy()
  })
})
