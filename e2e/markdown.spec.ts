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
  const created = await page.request.post('/api/chats', { data: { import: exported } })
  expect(created.status(), await created.text()).toBe(201)
  const { chat: made } = (await created.json()) as { chat: { id: string } }
  const chat = new ChatPage(page)
  await page.goto(`/c/${made.id}`)
  await expect(chat.composer).toBeEditable()
  return chat
}

test.describe('markdown in answers', () => {
  // That the renderer is linear (no freeze) is bounded where a busy machine cannot move it: the CPU
  // time of rendering this and other hostile inputs, in components/Markdown.test.tsx. Here: the
  // same 60 KB reaches the browser and is shown whole, as text, and the tab goes on taking input.
  test('60 KB of `*a ` is shown whole as text and the tab goes on taking input (the old renderer froze it for 14.6 s)', async ({ page }) => {
    const text = '*a '.repeat(20_000)
    const chat = await openWithAnswer(page, text)
    const answer = chat.lastAssistantMessage()
    await expect(answer).toContainText(text.trim())
    await expect(answer.locator('em, strong')).toHaveCount(0)
    await chat.composer.fill('still here')
    await expect(chat.composer).toHaveValue('still here')
    // And again after a reload, which is where the old renderer froze the tab a second time.
    await page.reload()
    await expect(answer).toContainText(text.trim())
    await chat.composer.fill('still here')
    await expect(chat.composer).toHaveValue('still here')
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
