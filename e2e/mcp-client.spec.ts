import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { writeMcpConfig } from './fixtures/mcp-servers'

// The chat as an MCP client: the production server with an mcp.json of real servers
// (server-everything, a fault server, one that exits at once), driven from Chromium.

test.describe.configure({ mode: 'serial' })

let app: AppProcess
test.beforeAll(async () => {
  // A production server and three MCP servers to start: more than one test's time on a loaded machine.
  test.setTimeout(90_000)
  app = await startApp({ env: { MCP_CONFIG: writeMcpConfig(), OFFLINE_MODEL_DELAY_MS: '0' } })
  // server-everything adds its elicitation and sampling tools once it knows the client offers them.
  await expect
    .poll(async () => ((await (await fetch(`${app.url}/api/tools`)).json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name), { timeout: 20_000 })
    .toContain('everything__trigger-sampling-request')
})
test.afterAll(async () => {
  await app?.kill()
})
test.use({ baseURL: undefined })

/** No serious or critical axe finding on the page as it is now. */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`).join('; ')}`)).toEqual([])
}

async function open(page: Page) {
  const chat = new ChatPage(page)
  await page.goto(app.url)
  await expect(chat.composer).toBeEditable()
  return chat
}

test('GET /api/tools lists the app’s tools, the servers’ tools by <server>__<tool>, and which server is down and why', async () => {
  const response = await fetch(`${app.url}/api/tools`)
  expect(response.status).toBe(200)
  const body = (await response.json()) as { tools: Array<{ name: string; description: string; source: string }>; servers: Array<{ name: string; status: string; error?: string }> }
  expect(body.tools).toContainEqual({ name: 'book_flight', description: expect.any(String), source: 'plugin' })
  expect(body.tools).toContainEqual({ name: 'everything__echo', description: expect.stringContaining('Echo'), source: 'mcp:everything' })
  expect(body.tools).toContainEqual(expect.objectContaining({ name: 'everything__trigger-long-running-operation', source: 'mcp:everything' }))
  expect(body.tools.filter((tool) => tool.source === 'mcp:broken')).toEqual([])
  expect(body.servers).toContainEqual({ name: 'everything', status: 'ready' })
  expect(body.servers).toContainEqual({ name: 'broken', status: expect.stringMatching(/failed|starting/), error: expect.stringContaining('code 3') })
})

test('the empty chat suggests what plugins and servers offer: a server’s chip starts a slash command; “What can you do?” names its tools', async ({ page }) => {
  const chat = await open(page)
  const empty = page.locator('[data-empty-state]')
  // The plugins' own suggestions come from their entries in plugins/index.ts, rendered on the server.
  await expect(empty.getByRole('button', { name: 'Book a flight from NYC to LAX' })).toBeVisible()
  // A server that is up offers its tools; one that is down offers nothing.
  await expect(empty.getByRole('button', { name: 'Tools of everything' })).toBeVisible()
  await expect(empty.getByRole('button', { name: /Tools of broken/ })).toHaveCount(0)
  await empty.getByRole('button', { name: 'Tools of everything' }).click()
  await expect(chat.composer).toHaveValue('/everything__')
  await expect(chat.composer).toBeFocused()
  await expect(page.getByRole('listbox', { name: 'Tools' }).getByRole('option').first()).toContainText('/everything__')
  await page.screenshot({ path: test.info().outputPath('empty-state-servers.png') })

  await chat.composer.fill('')
  await empty.getByRole('button', { name: 'What can you do?' }).click()
  await expect(chat.assistantMessages.last()).toContainText(/book flights.* use the tools everything__[\w-]+/)
})

test('a slash command calls a tool directly: names suggested after /, the result in the card, no model', async ({ page }) => {
  const chat = await open(page)
  await chat.composer.fill('/everything__ec')
  const suggestions = page.getByRole('listbox', { name: 'Tools' })
  await expect(suggestions.getByRole('option')).toHaveCount(1)
  await expect(suggestions.getByRole('option', { selected: true })).toContainText('/everything__echo')
  await page.screenshot({ path: test.info().outputPath('suggestions.png') })
  await expectAccessible(page)
  await chat.composer.press('Enter')
  await expect(chat.composer).toHaveValue('/everything__echo ')
  await chat.composer.pressSequentially('{"message":"hi from the composer"}')
  await chat.composer.press('Enter')
  const card = chat.toolCalls('everything__echo')
  await expect(card.getByTestId('external-result')).toHaveText('Echo: hi from the composer')
  await expect(card).toHaveAttribute('data-status', 'completed')
  await chat.waitUntilIdle()
  await expect(chat.assistantMessages).toHaveCount(0)

  // Arrow keys move through the suggestions, and Escape closes them.
  await chat.composer.fill('/everything__')
  await expect(suggestions.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
  await chat.composer.press('ArrowDown')
  await expect(suggestions.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true')
  await chat.composer.press('Escape')
  await expect(suggestions).toBeHidden()

  await chat.say('/everything__echo {"message": oops}')
  await expect(page.getByRole('alert').filter({ hasText: 'not valid JSON' })).toBeVisible()
  await chat.say('/nowhere__echo {}')
  await expect(page.getByRole('alert').filter({ hasText: 'no tool named "nowhere__echo"' })).toBeVisible()
  await expect(chat.assistantMessages).toHaveCount(0)
})

test('results: every text block readable, images as images, structuredContent in the JSON view, isError as an error', async ({ page }) => {
  const chat = await open(page)
  await chat.say('/everything__get-tiny-image {}')
  const image = chat.toolCalls('everything__get-tiny-image').getByTestId('external-result')
  await expect(image.getByRole('img', { name: 'Image from the tool' })).toBeVisible()
  await expect(image.getByRole('img')).toHaveJSProperty('complete', true)
  expect(await image.getByRole('img').evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0)
  await expect(image).toContainText('Here\'s the image you requested')
  await chat.waitUntilIdle()

  await chat.say('/everything__get-structured-content {"location":"Chicago"}')
  const weather = chat.toolCalls('everything__get-structured-content').getByTestId('external-result')
  await expect(weather).toContainText('Light rain / drizzle')
  await expect(weather.getByRole('term').filter({ hasText: /humidity/i })).toBeVisible()
  await chat.waitUntilIdle()

  await chat.say('/faulty__fails {}')
  const failed = chat.toolCalls('faulty__fails').getByTestId('external-result')
  await expect(failed.getByRole('alert')).toHaveText('The tool reported an error')
  await expect(chat.toolCalls('faulty__fails')).toHaveAttribute('data-status', 'failed')
  await expect(failed).toContainText('The disk is full.')
  await page.screenshot({ path: test.info().outputPath('results.png'), fullPage: true })
})

test('a server’s form: labelled controls from its schema, required checked, Accept sends it; it survives a reload', async ({ page }) => {
  // The accessibility check of this tall form takes about 12 s of the run on 2 cores, beside a reload and two submits.
  test.setTimeout(60_000)
  const chat = await open(page)
  await chat.say('/everything__trigger-elicitation-request {}')
  const form = page.getByRole('region', { name: 'Form from everything' })
  await expect(form).toBeVisible()
  await expect(form.getByLabel('String with email format')).toHaveAttribute('type', 'email')
  await expect(form.getByLabel('String with date format')).toHaveAttribute('type', 'date')
  await expect(form.getByLabel('Integer', { exact: true })).toHaveValue('42')
  await expect(form.getByRole('checkbox', { name: 'Boolean' })).not.toBeChecked()
  await expect(form.getByLabel('Legacy Titled Single Select Enum')).toHaveValue('pet-1')
  await expect(form.getByRole('option', { name: 'Cats' })).toHaveCount(1)
  await expect(form.getByRole('radio', { name: 'Superman' })).toBeChecked()
  await expect(form.getByRole('group', { name: 'Titled Multiple Select Enum' }).getByRole('checkbox', { name: 'Tuna' })).toBeChecked()
  // Tall enough for the whole form: the conversation scrolls inside the page, not the page itself.
  await page.setViewportSize({ width: 900, height: 1900 })
  await form.screenshot({ path: test.info().outputPath('form.png') })
  await expectAccessible(page)

  await page.reload()
  await expect(form).toBeVisible()
  await form.getByRole('button', { name: 'Accept' }).click()
  await expect(form.getByRole('alert').first()).toBeVisible()
  await expect(form.getByLabel(/^String \*?$/)).toHaveAttribute('aria-invalid', 'true')
  await form.getByLabel(/^String \*?$/).fill('Ada Lovelace')
  await form.getByLabel('Integer', { exact: true }).fill('7')
  await form.getByRole('checkbox', { name: 'Boolean' }).check()
  await form.getByRole('button', { name: 'Accept' }).click()
  const card = chat.toolCalls('everything__trigger-elicitation-request')
  await expect(card.getByTestId('external-result')).toContainText('Name: Ada Lovelace')
  await expect(card.getByTestId('external-result')).toContainText('Favorite Integer: 7')
  await expect(card.getByTestId('external-result')).toContainText('Agreed to terms: true')
})

test('a URL-mode question: the link, opened in a new tab, and Accept only once confirmed', async ({ page }) => {
  const chat = await open(page)
  await chat.say('/everything__trigger-url-elicitation {"url":"https://example.com/authorize","message":"Sign in to continue."}')
  const question = page.getByRole('region', { name: 'Link from everything' })
  await expect(question).toContainText('Sign in to continue.')
  const link = question.getByRole('link', { name: 'https://example.com/authorize' })
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  const accept = question.getByRole('button', { name: 'Accept' })
  await expect(accept).toBeDisabled()
  await question.getByRole('checkbox', { name: 'I opened the page and finished there' }).check()
  await accept.click()
  await expect(chat.toolCalls('everything__trigger-url-elicitation').getByTestId('external-result')).toContainText('accept')
  await expect(question).toContainText('Accepted.')
})

test('a server’s sampling request: shown with its limits, approved, answered by the chat’s model', async ({ page }) => {
  const chat = await open(page)
  await chat.say('/everything__trigger-sampling-request {"prompt":"Suggest a colour","maxTokens":40}')
  const approval = page.getByRole('region', { name: 'Sampling request from everything' })
  await expect(approval).toContainText('Suggest a colour')
  await expect(approval).toContainText('at most 40 tokens · temperature 0.7')
  await expect(approval).toContainText('You are a helpful test server.')
  await page.screenshot({ path: test.info().outputPath('sampling.png'), fullPage: true })
  await expectAccessible(page)
  await approval.getByRole('button', { name: 'Approve' }).click()
  const card = chat.toolCalls('everything__trigger-sampling-request')
  await expect(card.getByTestId('external-result')).toContainText('LLM sampling result')
  await expect(card).toContainText("The chat's model answered")
  await expect(approval).toContainText('Approved.')
})

test('a long call’s progress bar moves; Stop cancels the call', async ({ page }) => {
  const chat = await open(page)
  // Every value the bar shows, as the page renders it: the bar is gone once the call is over, so
  // looking at it from here now and then could miss its whole second at 50–75 % on a busy machine.
  await page.evaluate(() => {
    const shown: string[] = []
    ;(window as unknown as { progressShown: string[] }).progressShown = shown
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]')
      const value = bar?.getAttribute('aria-valuenow')
      // Each value with the bar's range: "50/100".
      if (value && `${value}/${bar!.getAttribute('aria-valuemax')}` !== shown.at(-1)) shown.push(`${value}/${bar!.getAttribute('aria-valuemax')}`)
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] })
  })
  await chat.say('/everything__trigger-long-running-operation {"duration":2,"steps":4}')
  const card = chat.toolCalls('everything__trigger-long-running-operation')
  await expect(card.getByTestId('external-result')).toContainText('Long running operation completed')
  const shown = await page.evaluate(() => (window as unknown as { progressShown: string[] }).progressShown)
  // It moved: more than one value out of 100, each above the last, up to at least half way.
  expect(shown.every((entry) => entry.endsWith('/100')), String(shown)).toBe(true)
  const values = shown.map((entry) => Number(entry.split('/')[0]))
  expect(values.length, String(shown)).toBeGreaterThanOrEqual(2)
  expect(values, String(shown)).toEqual([...values].sort((a, b) => a - b))
  expect(Math.max(...values), String(shown)).toBeGreaterThanOrEqual(50)

  await chat.say('/everything__trigger-long-running-operation {"duration":60,"steps":60}')
  const second = chat.toolCalls('everything__trigger-long-running-operation').nth(1)
  await expect(second.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /\d/)
  await chat.stop.click()
  await expect(second).toHaveAttribute('data-status', /stopped|cancelled/)
  await chat.waitUntilIdle()
  // The server's session is gone too: nothing is left running.
  await expect.poll(async () => ((await (await fetch(`${app.url}/api/sessions`)).json()) as { sessions: unknown[] }).sessions).toEqual([])
})

test('a dead server is named in the chat; malformed and huge results are errors in their card; the rest works', async ({ page }) => {
  const chat = await open(page)
  const notice = page.getByRole('status', { name: 'MCP servers down' })
  await expect(notice).toContainText('MCP server broken is down')
  await expect(notice).toContainText('code 3')
  await page.screenshot({ path: test.info().outputPath('server-down.png') })

  await chat.say('/faulty__malformed {}')
  await expect(chat.toolCalls('faulty__malformed').getByRole('alert')).toContainText('could not be used')
  await chat.waitUntilIdle()
  await chat.say('/faulty__huge {}')
  await expect(chat.toolCalls('faulty__huge').getByRole('alert')).toContainText('too large to show')
  await chat.waitUntilIdle()
  await chat.say('Book a flight from NYC to LAX')
  await expect(chat.toolCalls('book_flight')).toBeVisible()
})

test('stopping the app stops its servers: no child process is left', async () => {
  test.setTimeout(60_000)
  const own = await startApp({ env: { MCP_CONFIG: writeMcpConfig() } })
  try {
    await expect.poll(async () => ((await (await fetch(`${own.url}/api/tools`)).json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name), { timeout: 20_000 }).toContain('faulty__pid')
    const response = await fetch(`${own.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: '/faulty__pid' }], directToolCall: { name: 'faulty__pid', arguments: {} } }),
    })
    const result = (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line)).find((event) => event.type === 'tool_result')
    const pid = Number(JSON.parse(result.content).content[0].text)
    expect(isAlive(pid)).toBe(true)
    await own.stop()
    await expect.poll(() => isAlive(pid), { timeout: 5_000 }).toBe(false)
  } finally {
    await own.kill()
  }
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
