import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test'

/** MCP Inspector's web client as a person uses it: found by role, name and visible text. */
export class InspectorPage {
  /** The question Inspector shows (its own form, or the server's app inside it). */
  readonly elicitation: Locator
  readonly sampling: Locator
  /** The tool's structured result, as Inspector prints it (JSON). */
  readonly result: Locator

  constructor(
    readonly page: Page,
    readonly url: string,
  ) {
    this.elicitation = page.getByRole('dialog').filter({ hasNot: page.getByText('Sampling Request') })
    this.sampling = page.getByRole('dialog').filter({ has: page.getByText('Sampling Request') })
    this.result = page.getByTestId('structured-output')
  }

  async open() {
    await this.page.goto(this.url)
    await expect(this.page.getByText('Read-only session')).toBeVisible()
  }

  /** Turn on the server's switch and wait until connected; the protocol revision it negotiated. */
  async connect(server: string): Promise<string> {
    await this.toggleConnection(server)
    return this.connected(server)
  }

  /** Click the server's switch, as a person does (an OAuth-protected server then sends the browser to sign in). */
  async toggleConnection(server: string) {
    const toggle = this.page.getByRole('switch', { name: `Connect or disconnect "${server}"` })
    // The switch's input sits under its drawn track: a person clicks the track, which is its label.
    await this.page.locator(`label[for="${await toggle.getAttribute('id')}"]`).click()
  }

  /** Wait until the server is connected; the protocol revision it negotiated. */
  async connected(server: string): Promise<string> {
    await expect(this.page.getByRole('switch', { name: `Connect or disconnect "${server}"` })).toBeChecked()
    const revision = this.page.getByText(/^MCP 20\d\d-\d\d-\d\d$/)
    await expect(revision).toBeVisible()
    return (await revision.textContent())!
  }

  async toggleColourScheme() {
    await this.page.getByRole('button', { name: 'Toggle color scheme' }).click()
  }

  /** Open the Tools tab, pick the tool, fill its arguments and run it. */
  async callTool(name: string, args: Record<string, string>) {
    await this.page.getByText('Tools', { exact: true }).click()
    await this.page.getByText(name, { exact: true }).first().click()
    for (const [argument, value] of Object.entries(args)) await this.page.getByRole('textbox', { name: new RegExp(`^${argument}`) }).fill(value)
    await this.page.getByRole('button', { name: 'Execute Tool' }).click()
  }

  /** The MCP App the current question shows: inside Inspector's sandbox proxy, the app's own frame. */
  app(): FrameLocator {
    return this.elicitation.frameLocator('iframe[src*="/sandbox"]').frameLocator('iframe')
  }

  /** In our FlightList app: take the JetStream flight. */
  async pickJetStreamFlight() {
    await this.app().getByRole('button', { name: /^JetStream JS \d+/ }).click()
  }

  /** In our SeatPicker app: pick the first free seat and confirm it; the seat picked (`12C`). */
  async pickFreeSeat(): Promise<string> {
    const freeSeat = this.app().getByRole('button', { name: /^Seat \d+[A-F]$/, disabled: false }).first()
    const seat = (await freeSeat.getAttribute('aria-label'))!.replace('Seat ', '')
    await freeSeat.click()
    await this.app().getByRole('button', { name: 'Confirm' }).click()
    return seat
  }

  /** The travel tip answered by hand, then the booking's result: a ticket for this seat. */
  async finishBooking(seat: string) {
    await this.answerSampling('Take the FlyAway bus to Union Station.')
    await expect(this.result).toContainText(/"ticketNumber": "TKT-[A-Z0-9]+"/)
    await expect(this.result).toContainText(`"seat": "${seat}"`)
  }

  /** Answer the server's sampling request (the travel tip) by hand, as Inspector asks a person to. */
  async answerSampling(text: string) {
    await expect(this.sampling).toBeVisible()
    await this.sampling.getByRole('textbox').first().fill(text)
    await this.sampling.getByRole('button', { name: 'Send Response' }).click()
  }
}
