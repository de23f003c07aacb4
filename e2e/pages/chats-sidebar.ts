import { expect, type Locator, type Page } from '@playwright/test'
import { ChatPage } from './chat-page'

/** The sidebar of chats as a person sees it (components/chats): found by role and accessible name. */
export class ChatsSidebar {
  readonly nav: Locator
  /** The chats listed, newest first: each a link to `/c/<id>`. */
  readonly entries: Locator
  readonly newChat: Locator
  /** At phone width: the button that opens the drawer, and the drawer's close button. */
  readonly opener: Locator
  readonly close: Locator
  /** "Chat deleted · Undo", and what follows it. */
  readonly status: Locator
  readonly undo: Locator
  readonly importFile: Locator
  /** Why the last import was refused. */
  readonly importError: Locator

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Chats' })
    this.entries = this.nav.getByRole('listitem').getByRole('link')
    this.newChat = page.getByRole('complementary').getByRole('link', { name: 'New chat', exact: true }).first()
    this.opener = page.getByRole('button', { name: 'Chats', exact: true })
    this.close = page.getByRole('button', { name: 'Close chats' })
    this.status = page.getByRole('complementary').getByRole('status')
    this.undo = this.status.getByRole('button', { name: /^Undo/ })
    this.importFile = page.getByLabel('Import a chat (JSON)')
    this.importError = page.getByRole('complementary').getByRole('alert')
  }

  entry(title: string): Locator {
    return this.entries.filter({ hasText: title })
  }

  /** Opens the chat's menu (by keyboard: focus, ↓) and chooses `item`. */
  async choose(title: string, item: 'Rename' | 'Download as Markdown' | 'Download as JSON' | 'Delete') {
    const button = this.nav.getByRole('button', { name: `Options for ${title}`, exact: true })
    await button.focus()
    await this.page.keyboard.press('ArrowDown')
    const menuItem = this.page.getByRole('menu', { name: `Options for ${title}` }).getByRole('menuitem', { name: item })
    await expect(this.page.getByRole('menuitem').first()).toBeFocused()
    await menuItem.focus()
    await this.page.keyboard.press('Enter')
  }

  /** Renames by keyboard: the menu, the field, Enter. */
  async rename(title: string, to: string) {
    await this.choose(title, 'Rename')
    const field = this.page.getByRole('textbox', { name: `Rename ${title}` })
    await expect(field).toBeFocused()
    await field.fill(to)
    await field.press('Enter')
  }
}

/**
 * The chat page at `/` with its sidebar's first read answered: this browser has its identity
 * cookie then, so the chats made next are its own (two first requests at once would be two
 * identities).
 */
export async function openChats(page: Page): Promise<ChatsSidebar> {
  const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'GET')
  await new ChatPage(page).goto()
  expect((await listed).status()).toBe(200)
  return new ChatsSidebar(page)
}

/**
 * Makes a chat through the API in the page's own context (so it belongs to this browser's
 * identity), titled by a rename; its id.
 */
export async function createChat(page: Page, title?: string): Promise<string> {
  return page.evaluate(async (title) => {
    const created = await fetch('/api/chats', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })
    if (created.status !== 201) throw new Error(`POST /api/chats answered ${created.status}`)
    const { chat } = (await created.json()) as { chat: { id: string } }
    if (title !== undefined) {
      const renamed = await fetch(`/api/chats/${chat.id}`, { method: 'PATCH', body: JSON.stringify({ title }), headers: { 'Content-Type': 'application/json' } })
      if (!renamed.ok) throw new Error(`PATCH answered ${renamed.status}`)
    }
    // As the chat page says when it makes a chat.
    window.dispatchEvent(new CustomEvent('chats:changed', { detail: { id: chat.id } }))
    return chat.id
  }, title)
}
