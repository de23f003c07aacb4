import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ChatPage } from './pages/chat-page'
import { createChat, openChats as open } from './pages/chats-sidebar'

// The sidebar of chats (issue 25, item 2): the chats of this browser, listed by the server, as
// links to /c/<id>; rename, delete with undo, export and import; a drawer at phone width that
// works by keyboard. The chats are made through the API in the page (so they are this browser's),
// as the chat page makes them.

/**
 * Where a screenshot goes: the test's output, or docs/ with `UPDATE_DOCS_SCREENSHOTS=1` (the
 * pictures docs/conversations.md shows).
 */
function shot(name: string): string {
  return process.env.UPDATE_DOCS_SCREENSHOTS === '1' ? `docs/${name}.png` : test.info().outputPath(`${name}.png`)
}

/** A screenshot of the screen, and axe on it: no serious or critical violation (as e2e/accessibility.spec.ts). */
async function look(page: Page, name: string) {
  // Two frames: a scheme just switched by `emulateMedia` is painted whole, not half-way.
  await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))))
  await page.screenshot({ path: shot(name) })
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  expect.soft(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `axe on ${name}`).toEqual([])
}

test.describe('on a wide screen', () => {
  // Reduced motion: no colour transition half-way through when a screen is looked at in the other scheme.
  test.use({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' })
  // Each axe run walks the whole page: on a busy 2-core machine five of them need more than 30 s.
  test.slow()

  test('lists this browser’s chats newest first as links to /c/<id>; rename and delete with undo reach the server; another browser sees none', async ({ page, browser }) => {
    const sidebar = await open(page)
    await expect(sidebar.nav.getByText('No chats yet.')).toBeVisible()
    const trains = await createChat(page, 'Trains to Lyon')
    const untitled = await createChat(page)
    const flight = await createChat(page, 'Book a flight to Tokyo')

    await expect(sidebar.entries).toHaveText(['Book a flight to Tokyo', 'New chat', 'Trains to Lyon'])
    expect(await sidebar.entries.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([`/c/${flight}`, `/c/${untitled}`, `/c/${trains}`])
    // On `/` (a new chat) no entry is the current page.
    await expect(sidebar.nav.locator('[aria-current]')).toHaveCount(0)
    // The chat keeps its width beside the 260 px column.
    expect(await sidebar.nav.evaluate((nav) => nav.closest('aside')!.getBoundingClientRect().width)).toBe(260)
    expect(await page.getByTestId('chat').evaluate((chat) => chat.getBoundingClientRect().width)).toBe(1280 - 260)

    await look(page, 'chats-sidebar')
    await page.emulateMedia({ colorScheme: 'dark' })
    await look(page, 'chats-sidebar-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    await sidebar.rename('Trains to Lyon', 'Night train to Vienna')
    await expect(sidebar.nav.getByRole('link', { name: 'Night train to Vienna' })).toBeFocused()
    // Renamed is changed: it is first now, and so it is after a reload (the server's list).
    await expect(sidebar.entries.first()).toHaveText('Night train to Vienna')
    await page.reload()
    await expect(sidebar.entries).toHaveText(['Night train to Vienna', 'Book a flight to Tokyo', 'New chat'])

    // A chat's menu open, in both schemes.
    await sidebar.nav.getByRole('button', { name: 'Options for Book a flight to Tokyo' }).focus()
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeFocused()
    await look(page, 'chats-sidebar-menu')
    await page.emulateMedia({ colorScheme: 'dark' })
    await look(page, 'chats-sidebar-menu-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.keyboard.press('Escape')
    await expect(page.getByRole('menu')).toBeHidden()

    await sidebar.choose('Book a flight to Tokyo', 'Delete')
    await expect(sidebar.entries).toHaveText(['Night train to Vienna', 'New chat'])
    await expect(sidebar.status).toContainText('Chat deleted')
    await expect(sidebar.undo).toBeFocused()
    await look(page, 'chats-sidebar-undo')
    await page.keyboard.press('Enter')
    await expect(sidebar.status).toHaveText('Chat restored')
    await expect(sidebar.nav.getByRole('link', { name: 'Book a flight to Tokyo' })).toBeFocused()
    await expect(sidebar.entries).toHaveText(['Night train to Vienna', 'Book a flight to Tokyo', 'New chat'])
    await page.reload()
    await expect(sidebar.entries).toHaveText(['Night train to Vienna', 'Book a flight to Tokyo', 'New chat'])

    // Deleted without undo: gone from the server's list too.
    await sidebar.choose('New chat', 'Delete')
    await expect(sidebar.undo).toBeFocused()
    await page.reload()
    await expect(sidebar.entries).toHaveText(['Night train to Vienna', 'Book a flight to Tokyo'])

    const stranger = await browser.newContext()
    const other = await open(await stranger.newPage())
    await expect(other.entries).toHaveCount(0)
    expect(await other.page.evaluate(async () => (await (await fetch('/api/chats')).json()) as unknown)).toEqual({ chats: [] })
    expect(await other.page.evaluate(async (id) => (await fetch(`/api/chats/${id}`)).status, flight)).toBe(404)
    await stranger.close()
  })

  test('exports a chat as Markdown and JSON, imports the JSON back as a new chat, and says why a file is refused', async ({ page }) => {
    const sidebar = await open(page)
    await createChat(page, 'Trains to Lyon')
    await expect(sidebar.entries).toHaveText(['Trains to Lyon'])

    const markdown = page.waitForEvent('download')
    await sidebar.choose('Trains to Lyon', 'Download as Markdown')
    expect((await markdown).suggestedFilename()).toMatch(/\.md$/)
    const json = page.waitForEvent('download')
    await sidebar.choose('Trains to Lyon', 'Download as JSON')
    const exported = await json
    expect(exported.suggestedFilename()).toMatch(/\.json$/)

    await sidebar.importFile.setInputFiles(await exported.path())
    // The import is a new chat of this browser, opened at its own address.
    await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/)
    const imported = new URL(page.url()).pathname
    // (What /c/<id> shows is the chat page's; back on `/`, the list has both, the import first.)
    await open(page)
    await expect(sidebar.entries).toHaveText(['Trains to Lyon', 'Trains to Lyon'])
    await expect(sidebar.entries.first()).toHaveAttribute('href', imported)

    await sidebar.importFile.setInputFiles({ name: 'not-a-chat.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'elicit-chat', version: 99 })) })
    await expect(sidebar.importError).toContainText(/^Not imported: .*version/)
    await sidebar.importFile.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await expect(sidebar.importError).toHaveText('Not imported: notes.txt is not JSON: choose a chat’s JSON export (Download as JSON).')
  })
})

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' })
  test.slow()

  test('the drawer opens and closes by keyboard alone, the focus going in and coming back, the chat inert while it is open', async ({ page }) => {
    const sidebar = await open(page)
    const chat = new ChatPage(page)
    // Closed, the sidebar is out of the way: the chat has the whole width.
    await expect(sidebar.nav).toBeHidden()
    await expect(sidebar.opener).toHaveAttribute('aria-expanded', 'false')
    await createChat(page, 'Trains to Lyon')
    await createChat(page, 'Book a flight to Tokyo')

    // The Chats button is the page's first stop.
    await page.locator('body').focus()
    await page.keyboard.press('Tab')
    await expect(sidebar.opener).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(sidebar.opener).toHaveAttribute('aria-expanded', 'true')
    await expect(sidebar.nav).toBeVisible()
    await expect(sidebar.entries).toHaveText(['Book a flight to Tokyo', 'Trains to Lyon'])
    const drawer = page.locator(`#${await sidebar.opener.getAttribute('aria-controls')}`)
    expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    // The rest is inert: Tab goes round the drawer and never reaches the composer.
    for (let press = 0; press < 12; press++) {
      await page.keyboard.press('Tab')
      expect(await chat.composer.evaluate((composer) => composer === document.activeElement)).toBe(false)
    }
    await look(page, 'chats-drawer-phone')
    await page.emulateMedia({ colorScheme: 'dark' })
    await look(page, 'chats-drawer-phone-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    await page.keyboard.press('Escape')
    await expect(sidebar.nav).toBeHidden()
    await expect(sidebar.opener).toBeFocused()
    await expect(sidebar.opener).toHaveAttribute('aria-expanded', 'false')

    await page.keyboard.press('Space')
    await expect(sidebar.close).toBeVisible()
    await sidebar.close.focus()
    await page.keyboard.press('Enter')
    await expect(sidebar.nav).toBeHidden()
    await expect(sidebar.opener).toBeFocused()
    // Closed again: the chat takes the keyboard as before.
    await chat.composer.focus()
    await expect(chat.composer).toBeFocused()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: shot('chats-phone-closed') })
  })
})
