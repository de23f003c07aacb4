import { expect, test, type Page } from '@playwright/test'
import { ChatPage } from './pages/chat-page'

/**
 * A chat kept on the server whose one answer is `text` (imported through the chats API, as its
 * JSON export), opened at its URL, as a reload after a long answer finds it.
 */
async function openWithAnswer(page: Page, text: string) {
  const messages = [
    { role: 'user', content: 'Show me' },
    { role: 'assistant', content: text },
  ]
  const exported = {
    format: 'elicit-chat',
    version: 1,
    title: 'Show me',
    createdAt: 0,
    updatedAt: 0,
    turns: [{ input: { text: 'Show me' }, events: [{ type: 'text', content: text }, { type: 'conversation_state', messages }, { type: 'complete', text }] }],
    conversationState: messages,
  }
  await page.addInitScript(() => {
    const longest = { duration: 0 }
    ;(window as unknown as { longestTask: typeof longest }).longestTask = longest
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longest.duration = Math.max(longest.duration, entry.duration)
    }).observe({ type: 'longtask', buffered: true })
  })
  const created = await page.request.post('/api/chats', { data: { import: exported } })
  expect(created.status(), await created.text()).toBe(201)
  const { chat: made } = (await created.json()) as { chat: { id: string } }
  const chat = new ChatPage(page)
  await page.goto(`/c/${made.id}`)
  await expect(chat.composer).toBeEditable()
  return chat
}

test.describe('markdown in answers', () => {
  test('60 KB of `*a ` renders without blocking the tab (the old renderer froze it for 14.6 s)', async ({ page }) => {
    const text = '*a '.repeat(20_000)
    const chat = await openWithAnswer(page, text)
    await expect(chat.lastAssistantMessage()).toContainText('*a *a *a')
    const shown = await page.evaluate(() => performance.now())
    const longestTask = await page.evaluate(() => (window as unknown as { longestTask: { duration: number } }).longestTask.duration)
    console.log(`60 KB of "*a ": shown ${Math.round(shown)} ms after navigation; longest task ${Math.round(longestTask)} ms`)
    expect(longestTask).toBeLessThan(1_000)
    expect(shown).toBeLessThan(5_000)
    // And again after a reload, which is where the old renderer froze the tab a second time.
    await page.reload()
    await expect(chat.lastAssistantMessage()).toContainText('*a *a *a')
    expect(await page.evaluate(() => (window as unknown as { longestTask: { duration: number } }).longestTask.duration)).toBeLessThan(1_000)
  })

  test('a table and a code block render; script, handlers and javascript: links stay inert text', async ({ page }) => {
    let dialogs = 0
    page.on('dialog', (dialog) => {
      dialogs++
      void dialog.dismiss()
    })
    const chat = await openWithAnswer(
      page,
      [
        'Your options:',
        '',
        '| Flight | Price |',
        '| --- | ---: |',
        '| SkyHigh 101 | **$299** |',
        '| Jet 7 | $310 |',
        '',
        '```ts',
        'const seat = "12A" // <b>not bold</b>',
        '```',
        '',
        '<img src=x onerror="alert(1)"> <script>alert(2)</script> [click](javascript:alert(3)) [docs](https://example.com/help)',
      ].join('\n'),
    )
    const answer = chat.lastAssistantMessage()
    const table = answer.getByRole('table')
    await expect(table.getByRole('columnheader')).toHaveText(['Flight', 'Price'])
    await expect(table.getByRole('row')).toHaveCount(3)
    await expect(table.getByRole('cell', { name: '$299' })).toHaveCSS('text-align', 'right')
    const code = answer.locator('pre code')
    await expect(code).toHaveText('const seat = "12A" // <b>not bold</b>')
    await expect(code).toHaveAttribute('data-language', 'ts')
    await expect(answer).toContainText('<img src=x onerror="alert(1)"> <script>alert(2)</script> [click](javascript:alert(3))')
    await expect(answer.locator('img, script, b')).toHaveCount(0)
    await expect(answer.getByRole('link')).toHaveCount(1)
    await expect(answer.getByRole('link', { name: 'docs' })).toHaveAttribute('href', 'https://example.com/help')
    expect(dialogs).toBe(0)
  })
})
