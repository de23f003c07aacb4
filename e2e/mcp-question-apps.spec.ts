import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { test as base, expect } from '@playwright/test'
import { InspectorPage } from './pages/inspector-page'
import { startApp, type AppProcess } from './support/app-process'
import { startInspector, type InspectorProcess } from './support/inspector-process'

// Our question components as MCP Apps in a host that renders app-rendered elicitations
// (SEP-3118): MCP Inspector 2.12.0's web client, from npm on Node 22, connected to the
// production app's /api/mcp. Three entries of one Inspector config: 2025-11-25 (Inspector's
// default), 2026-07-28 input_required rounds, and one that does not negotiate the MCP Apps
// extension, which must get Inspector's native form with titled choices.
const UI = 'io.modelcontextprotocol/ui'
const SERVERS = { legacy: 'elicit-chat', modern: 'elicit-chat-2026', forms: 'elicit-chat-forms' }

const test = base.extend<{ inspector: InspectorPage }, { app: AppProcess; inspectorProcess: InspectorProcess }>({
  app: [
    async ({}, use) => {
      const app = await startApp()
      try {
        await use(app)
      } finally {
        await app.kill()
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  inspectorProcess: [
    async ({ app }, use) => {
      const url = `${app.url}/api/mcp`
      const inspector = await startInspector({
        servers: {
          [SERVERS.legacy]: { url },
          [SERVERS.modern]: { url, protocolEra: 'modern' },
          [SERVERS.forms]: { url, advertisedExtensions: { [UI]: false } },
        },
      })
      try {
        await use(inspector)
      } finally {
        await inspector.stop()
      }
    },
    // The first run downloads Inspector and Node 22 from the npm registry.
    { scope: 'worker', timeout: 300_000 },
  ],
  inspector: async ({ page, inspectorProcess, app }, use, testInfo) => {
    const inspector = new InspectorPage(page, inspectorProcess.url)
    await inspector.open()
    await use(inspector)
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('inspector output', { body: inspectorProcess.output(), contentType: 'text/plain' })
      await testInfo.attach('server output', { body: app.output(), contentType: 'text/plain' })
    }
  },
})

// In order in one worker, so the file shares one app and one Inspector; a booking through
// Inspector's UI takes a while on 2 cores.
test.describe.configure({ mode: 'default', timeout: 90_000 })

for (const era of ['legacy', 'modern'] as const) {
  test(`book_flight in Inspector (${era === 'legacy' ? '2025-11-25' : '2026-07-28'}): our FlightList, then our SeatPicker, drawn in Inspector's app-rendered elicitation; the booking completes with a ticket`, async ({ inspector, page }, testInfo) => {
    expect(await inspector.connect(SERVERS[era])).toBe(era === 'legacy' ? 'MCP 2025-11-25' : 'MCP 2026-07-28')
    await inspector.callTool('book_flight', { from: 'NYC', destination: 'LAX' })

    // Inspector says where the question is answered; the app is ours: the chat's FlightList, in light.
    await expect(inspector.elicitation.getByText('Answering through the server-provided MCP App.')).toBeVisible()
    const flights = inspector.app().getByRole('region', { name: 'Flights from NYC to LAX' })
    await expect(flights).toBeVisible()
    await expect(inspector.app().locator('html')).toHaveAttribute('data-theme', 'light')
    await page.screenshot({ path: testInfo.outputPath(`inspector-${era}-flight-list.png`) })
    await inspector.pickJetStreamFlight()

    // Then the SeatPicker, a second app bound to the second question.
    const seats = inspector.app().getByRole('grid', { name: /^Seat map for JS \d+$/ })
    await expect(seats).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath(`inspector-${era}-seat-picker.png`) })
    await inspector.finishBooking(await inspector.pickFreeSeat())
    await expect(inspector.result).toContainText('"flightNumber": "JS')
  })
}

test('tic-tac-toe in Inspector: our board is each move\'s question, the model\'s moves come back through sampling, and the game plays to the end', async ({ inspector }) => {
  await inspector.connect(SERVERS.legacy)
  await inspector.callTool('tictactoe', {})
  // X takes the top row; the model (answered here by hand, as Inspector asks) takes 4 and 5.
  for (const [move, cell, reply] of [[1, 1, '4'], [3, 2, '5'], [5, 3, undefined]] as const) {
    await expect(inspector.app().getByRole('region', { name: `Tic-tac-toe, move ${move}` })).toBeVisible()
    await inspector.app().getByRole('button', { name: `Cell ${cell}, empty` }).click()
    if (reply) await inspector.answerSampling(reply)
  }
  await expect(inspector.result).toContainText('"outcome": "win"')
  await expect(inspector.result).toContainText(/"winningLine": \[\s*1,\s*2,\s*3\s*\]/)
})

test("in Inspector's dark theme the app is dark too (the host's theme and CSS variables)", async ({ inspector, page }, testInfo) => {
  await inspector.toggleColourScheme()
  await inspector.connect(SERVERS.legacy)
  await inspector.callTool('book_flight', { from: 'SFO', destination: 'SEA' })
  const html = inspector.app().locator('html')
  await expect(html).toHaveAttribute('data-theme', 'dark')
  // Inspector hands its MCP Apps style variables over; the app's body reads them.
  await expect(html).toHaveAttribute('style', /--color-text-primary/)
  const flights = inspector.app().getByRole('region', { name: 'Flights from SFO to SEA' })
  await expect(flights).toHaveCSS('background-color', 'rgb(24, 24, 27)')
  await page.screenshot({ path: testInfo.outputPath('inspector-dark-flight-list.png') })
  await inspector.app().getByRole('button', { name: 'Decline' }).click()
  await expect(inspector.result).toContainText('"status": "cancelled"')
})

test("without the MCP Apps extension Inspector shows its native form: titled choices, and the booking completes by picking from them", async ({ inspector, page }, testInfo) => {
  expect(await inspector.connect(SERVERS.forms)).toBe('MCP 2025-11-25')
  await inspector.callTool('book_flight', { from: 'NYC', destination: 'LAX' })
  await expect(inspector.elicitation.getByText('Answering through the server-provided MCP App.')).toBeHidden()
  await expect(inspector.elicitation.locator('iframe')).toHaveCount(0)
  await inspector.elicitation.getByRole('textbox', { name: 'Flight' }).click()
  await expect(page.getByRole('option')).toHaveText([/^SH \d+ · 06:39 → 09:03 · \$218$/, /^CA \d+ · /, /^JS \d+ · /])
  await page.screenshot({ path: testInfo.outputPath('inspector-native-flight.png') })
  await page.getByRole('option', { name: /^JS / }).click()
  await inspector.elicitation.getByRole('button', { name: 'Submit' }).click()

  // The free seats, each titled with where it is; the one picked is the seat booked.
  await inspector.elicitation.getByRole('textbox', { name: 'Seat' }).click()
  const seats = page.getByRole('option')
  await expect(seats.first()).toHaveText(/^\d+[A-F] · (window|aisle|middle)$/)
  const seat = (await seats.first().textContent())!.split(' · ')[0]!
  await page.screenshot({ path: testInfo.outputPath('inspector-native-seat.png') })
  await seats.first().click()
  await inspector.elicitation.getByRole('button', { name: 'Submit' }).click()
  await inspector.answerSampling('Take the FlyAway bus to Union Station.')
  await expect(inspector.result).toContainText(/"ticketNumber": "TKT-[A-Z0-9]+"/)
  await expect(inspector.result).toContainText(`"seat": "${seat}"`)
})

test('a bad answer from an app (outside the schema, a value not offered) is refused and asked again, with its app, never reaching the tool', async ({ app }) => {
  // A host that forwards whatever its app returns, unchecked: the server is the last line.
  const client = new Client(
    { name: 'careless-host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} } } } },
  )
  const asked: Array<{ message: string; resourceUri?: string; choices: string[] }> = []
  const answers = [{ flightId: 42 }, { flightId: 'XX-000' }]
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: { properties: Record<string, { oneOf?: Array<{ const: string }> }> }; _meta?: { ui?: { resourceUri?: string } } }
    const choices = Object.values(params.requestedSchema.properties).flatMap((property) => property.oneOf?.map((option) => option.const) ?? [])
    asked.push({ message: params.message, resourceUri: params._meta?.ui?.resourceUri, choices })
    const bad = answers[asked.length - 1]
    if (bad) return { action: 'accept', content: bad } as never
    return { action: 'decline' } as never
  })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`)))
  try {
    const result = await client.callTool({ name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } })
    expect(asked).toHaveLength(3)
    // Each time the same question, with its app, asked again with the reason first.
    expect(asked.map((question) => question.resourceUri)).toEqual(['ui://book_flight/pickFlight', 'ui://book_flight/pickFlight', 'ui://book_flight/pickFlight'])
    expect(asked[1]!.message).not.toBe(asked[0]!.message)
    expect(asked[2]!.message).toContain('XX-000')
    expect(asked[2]!.choices).not.toContain('XX-000')
    // Declined at last: nothing was booked with either bad answer.
    expect(result.structuredContent).toMatchObject({ status: 'cancelled', step: 'flight' })
  } finally {
    await client.close()
  }
})

test("the native form of the other questions: tic-tac-toe's free cells and the cards, each titled, answered by picking", async ({ inspector, page }, testInfo) => {
  await inspector.connect(SERVERS.forms)
  await inspector.callTool('tictactoe', {})
  const move = inspector.elicitation.getByRole('textbox', { name: 'Your move' })
  await move.click()
  await expect(page.getByRole('option')).toHaveText(['Top left (1)', 'Top middle (2)', 'Top right (3)', 'Middle left (4)', 'Centre (5)', 'Middle right (6)', 'Bottom left (7)', 'Bottom middle (8)', 'Bottom right (9)'])
  await page.screenshot({ path: testInfo.outputPath('inspector-native-move.png') })
  await page.getByRole('option', { name: 'Top left (1)' }).click()
  await inspector.elicitation.getByRole('button', { name: 'Submit' }).click()
  await inspector.answerSampling('5')
  // The cell the model took is offered no more.
  await move.click()
  await expect(page.getByRole('option')).toHaveCount(7)
  await expect(page.getByRole('option', { name: 'Centre (5)' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await inspector.elicitation.getByRole('button', { name: 'Decline' }).click()
  await expect(inspector.result).toContainText('"outcome": "resigned"')

  await inspector.callTool('pick_card', {})
  await inspector.elicitation.getByRole('textbox', { name: 'Card' }).click()
  const cards = page.getByRole('option')
  await expect(cards).toHaveCount(5)
  await expect(cards.first()).toHaveText(/^Card 1: \w+ of \w+ \(.+\)$/)
  await page.screenshot({ path: testInfo.outputPath('inspector-native-card.png') })
  await cards.nth(1).click()
  await inspector.elicitation.getByRole('button', { name: 'Submit' }).click()
  await expect(inspector.result).toContainText(`"pickedNumber": 2`)
})
