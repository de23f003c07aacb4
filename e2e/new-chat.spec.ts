import { expect, test, type Page } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar, openChats } from './pages/chats-sidebar'

// Every way to a new chat — the sidebar's link (a drawer at phone width), the header's button,
// the keyboard, back and forward — shows an empty chat whose next message makes a chat of its
// own: a new address, a new entry in the sidebar, and the chat before it as it was.

const ASK = 'Book a flight from NYC to LAX'
const CHAT_URL = /\/c\/([A-Za-z0-9_-]{22})$/
const NEW_CHAT_URL = /^https?:\/\/[^/]+\/$/

/** The id of the chat the page shows, once its address names it. */
async function chatIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(CHAT_URL)
  return CHAT_URL.exec(page.url())![1]!
}

/** A flight booked to its ticket in the chat shown (a new one): the chat's id. */
async function bookAFlight(chat: ChatPage): Promise<string> {
  await chat.say(ASK)
  const id = await chatIdOf(chat.page)
  const booking = BookingCard.nth(chat.page)
  await booking.pickFlight(0)
  await booking.expectConfirmed({ seat: await booking.pickFreeSeat() })
  await chat.waitUntilIdle()
  return id
}

/** The chat and the sidebar; at phone width (`drawer`) the sidebar is a drawer, opened to be read. */
interface Screen {
  chat: ChatPage
  sidebar: ChatsSidebar
  drawer: boolean
}

async function openScreen(page: Page, { drawer = false } = {}): Promise<Screen> {
  const sidebar = await openChats(page)
  return { chat: new ChatPage(page), sidebar, drawer }
}

/** Reads the sidebar, as a person does: at phone width the drawer is opened for it, and closed after. */
async function inSidebar({ sidebar, drawer }: Screen, read: (sidebar: ChatsSidebar) => Promise<void>) {
  if (drawer) await sidebar.opener.click()
  await expect(sidebar.nav).toBeVisible()
  await read(sidebar)
  if (drawer) {
    await sidebar.close.click()
    await expect(sidebar.nav).toBeHidden()
  }
}

/** A new chat: the address `/`, the empty state, nothing of another chat, no entry of the sidebar current. */
async function expectNewChat(screen: Screen) {
  const { chat } = screen
  await expect(chat.page).toHaveURL(NEW_CHAT_URL)
  await expect(chat.page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
  await expect(chat.userMessages).toHaveCount(0)
  await expect(BookingCard.all(chat.page)).toHaveCount(0)
  await expect(chat.composer).toBeEditable()
  await inSidebar(screen, async (sidebar) => {
    await expect(sidebar.entries.first()).toBeVisible()
    await expect(sidebar.nav.locator('[aria-current]')).toHaveCount(0)
  })
}

/**
 * The next message, in the new chat: a chat of its own — a new address, and a new entry first in
 * the sidebar, the current one, beside the chats `before` — showing that message and its booking's
 * flight question alone. Its id.
 */
async function expectOwnChat(screen: Screen, before: string[]): Promise<string> {
  const { chat } = screen
  await chat.say(ASK)
  const id = await chatIdOf(chat.page)
  expect(before).not.toContain(id)
  await expect(chat.userMessages).toHaveText([ASK])
  await expect(BookingCard.nth(chat.page).flightList).toBeVisible()
  await expect(BookingCard.all(chat.page)).toHaveCount(1)
  await inSidebar(screen, async (sidebar) => {
    await expect(sidebar.entries).toHaveCount(before.length + 1)
    await expect(sidebar.entries.first()).toHaveAttribute('href', `/c/${id}`)
    await expect(sidebar.entries.first()).toHaveAttribute('aria-current', 'page')
  })
  return id
}

/** The booked chat, shown by its address: its one message and its ticket, its entry current. */
async function expectBooked(screen: Screen, id: string) {
  const { chat } = screen
  await expect(chat.page).toHaveURL(new RegExp(`/c/${id}$`))
  await expect(chat.userMessages).toHaveText([ASK])
  await expect(BookingCard.all(chat.page)).toHaveCount(1)
  await expect(BookingCard.nth(chat.page).confirmation).toContainText(/TKT-[A-Z0-9]{6}/)
  await inSidebar(screen, async (sidebar) => {
    await expect(sidebar.nav.locator('[aria-current="page"]')).toHaveAttribute('href', `/c/${id}`)
  })
}

/** Opens the booked chat from the sidebar (its drawer first, at phone width): it is as it was. */
async function reopenBooked(screen: Screen, id: string) {
  const { sidebar, drawer } = screen
  if (drawer) await sidebar.opener.click()
  await sidebar.nav.locator(`a[href="/c/${id}"]`).click()
  await expectBooked(screen, id)
}

/** New chat in the drawer, tapped. */
async function tapNewChatInDrawer({ sidebar }: Screen) {
  await sidebar.opener.click()
  await sidebar.newChat.click()
  await expect(sidebar.nav).toBeHidden()
}

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 860 } })
  test.slow()

  test('the sidebar’s New chat link, after a booking made at /', async ({ page }) => {
    const screen = await openScreen(page)
    const booked = await bookAFlight(screen.chat)

    await screen.sidebar.newChat.click()
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
    await page.screenshot({ path: test.info().outputPath('new-chat-wide.png') })
    await reopenBooked(screen, booked)
  })

  test('the header’s New chat button, in a chat opened by its address', async ({ page }) => {
    const screen = await openScreen(page)
    const booked = await bookAFlight(screen.chat)
    await page.reload()
    await expectBooked(screen, booked)

    await screen.chat.newChat.click()
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
    await reopenBooked(screen, booked)
  })

  test('the keyboard: Enter on the sidebar’s link, Space on the header’s button', async ({ page }) => {
    const screen = await openScreen(page)
    const booked = await bookAFlight(screen.chat)

    await screen.sidebar.newChat.focus()
    await page.keyboard.press('Enter')
    await expectNewChat(screen)
    const second = await expectOwnChat(screen, [booked])

    await screen.chat.newChat.focus()
    await page.keyboard.press('Space')
    await expectNewChat(screen)
    await expectOwnChat(screen, [second, booked])
    await reopenBooked(screen, booked)
  })

  test('back and forward between /c/<id> and /', async ({ page }) => {
    const screen = await openScreen(page)
    const booked = await bookAFlight(screen.chat)
    await screen.sidebar.newChat.click()
    await expectNewChat(screen)

    // Back: the booked chat again; forward: the new chat, still empty.
    await page.goBack()
    await expectBooked(screen, booked)
    await page.goForward()
    await expectNewChat(screen)
    const second = await expectOwnChat(screen, [booked])

    // Both chats were made on the same page: each address shows its own.
    await page.goBack()
    await expectBooked(screen, booked)
    await page.goForward()
    await expect(page).toHaveURL(new RegExp(`/c/${second}$`))
    await expect(screen.chat.userMessages).toHaveText([ASK])
    await expect(BookingCard.nth(page).flightList).toBeVisible()
    await expect(screen.sidebar.nav.locator('[aria-current="page"]')).toHaveAttribute('href', `/c/${second}`)
  })
})

test.describe('at phone width, the sidebar a drawer', () => {
  test.use({ viewport: { width: 390, height: 844 } })
  test.slow()

  test('New chat tapped in the drawer', async ({ page }) => {
    const screen = await openScreen(page, { drawer: true })
    const booked = await bookAFlight(screen.chat)

    await tapNewChatInDrawer(screen)
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
    await screen.sidebar.opener.click()
    await page.screenshot({ path: test.info().outputPath('new-chat-phone.png') })
    await screen.sidebar.close.click()
    await reopenBooked(screen, booked)
  })

  test('New chat chosen in the drawer by keyboard', async ({ page }) => {
    const screen = await openScreen(page, { drawer: true })
    const { sidebar } = screen
    const booked = await bookAFlight(screen.chat)

    // The drawer opens on the open chat's entry; New chat is two stops before it (past Close).
    await sidebar.opener.focus()
    await page.keyboard.press('Enter')
    await expect(sidebar.nav.locator(`a[href="/c/${booked}"]`)).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(sidebar.close).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(sidebar.newChat).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(sidebar.nav).toBeHidden()
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
    await reopenBooked(screen, booked)
  })

  test('the header’s New chat button', async ({ page }) => {
    const screen = await openScreen(page, { drawer: true })
    const booked = await bookAFlight(screen.chat)

    await screen.chat.newChat.click()
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
  })

  test('back and forward between /c/<id> and /', async ({ page }) => {
    const screen = await openScreen(page, { drawer: true })
    const booked = await bookAFlight(screen.chat)
    await tapNewChatInDrawer(screen)
    await expectNewChat(screen)

    await page.goBack()
    await expectBooked(screen, booked)
    await page.goForward()
    await expectNewChat(screen)
    await expectOwnChat(screen, [booked])
  })
})
