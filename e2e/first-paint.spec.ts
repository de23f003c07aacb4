import { expect, test } from '@playwright/test'
import { ChatPage } from './pages/chat-page'

// The empty state is the page's first paint, from the server's HTML; a conversation kept in
// this browser replaces it without the empty state ever showing in between.

test('the server’s HTML already holds the empty state', async ({ request }) => {
  const response = await request.get('/')
  expect(response.status()).toBe(200)
  const html = await response.text()
  expect(html).toContain('What can I help with?')
  expect(html).toContain('data-empty-state')
})

test('a reload with a stored conversation never shows the empty state', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await chat.say('What can you do?')
  await expect(chat.assistantMessages.first()).toBeVisible()
  await chat.waitUntilIdle()

  // Before any script of the page runs: note whether the empty state is ever visible.
  await page.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { emptyStateSeen: seen })
    const check = () => {
      const empty = document.querySelector('[data-empty-state]')
      // Until the stylesheet applies nothing is painted (it blocks rendering): only then does visibility count.
      const styled = getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)'
      if (empty && styled && getComputedStyle(empty).visibility !== 'hidden') seen.push('visible')
    }
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true })
    document.addEventListener('DOMContentLoaded', check)
  })
  await page.reload()
  await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
  await expect(chat.userMessages.first()).toHaveText('What can you do?')
  await expect(page.locator('[data-empty-state]')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { emptyStateSeen: string[] }).emptyStateSeen)).toEqual([])

  // New chat: the empty state is back, and after a reload nothing holds it back.
  await chat.newChat.click()
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
  // The empty state shows first; the address follows it to `/` (a reload before then reopens the chat).
  await expect(page).toHaveURL(/\/$/)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
})

test('the chat’s first load carries at most 180 KiB of script, and no Zod (it comes with what first needs it)', async ({ page }) => {
  const scripts: Array<{ url: string; bytes: Promise<number>; text: Promise<string> }> = []
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return
    // Bytes as they came over the wire (compressed), as the first-load budget counts them.
    scripts.push({ url: response.url(), bytes: response.request().sizes().then((sizes) => sizes.responseBodySize), text: response.text() })
  })
  await page.goto('/')
  await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
  await page.waitForLoadState('load')
  const loaded = await Promise.all(scripts.map(async ({ url, bytes, text }) => ({ url, bytes: await bytes, text: await text })))
  const total = loaded.reduce((sum, script) => sum + script.bytes, 0)
  expect(loaded.length).toBeGreaterThan(0)
  expect(total / 1024, loaded.map((script) => `${(script.bytes / 1024).toFixed(1)} KiB ${script.url}`).join('\n')).toBeLessThanOrEqual(180)
  expect(loaded.filter((script) => script.text.includes('ZodError')).map((script) => script.url)).toEqual([])
})
