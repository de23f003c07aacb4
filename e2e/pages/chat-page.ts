import { expect, type Locator, type Page } from '@playwright/test'

/** The chat as a person sees it: found by role and accessible name. */
export class ChatPage {
  readonly composer: Locator
  readonly send: Locator
  readonly stop: Locator
  readonly newChat: Locator
  readonly conversation: Locator
  readonly assistantMessages: Locator
  readonly userMessages: Locator

  constructor(readonly page: Page) {
    this.composer = page.getByRole('textbox', { name: 'Message' })
    // Exact: a question's answer line may say "Stopped before an answer".
    this.send = page.getByRole('button', { name: 'Send', exact: true })
    this.stop = page.getByRole('button', { name: 'Stop', exact: true })
    this.newChat = page.getByRole('button', { name: 'New chat', exact: true })
    this.conversation = page.getByRole('log', { name: 'Conversation' })
    this.assistantMessages = page.getByTestId('assistant-message')
    this.userMessages = page.getByTestId('user-message')
  }

  async goto() {
    await this.page.goto('/')
    await expect(this.composer).toBeEditable()
  }

  /** Type a message and press Enter, once the page is ready (hydrated, its chat loaded): text typed before then is lost, and Enter does nothing. */
  async say(text: string) {
    await expect(this.page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
    await this.composer.fill(text)
    await this.composer.press('Enter')
  }

  /** Every call of a tool in the conversation; a plugin's page object (plugins/<name>/e2e/) finds its own. */
  toolCalls(toolName: string): Locator {
    return this.page.getByRole('group', { name: `Tool call ${toolName}` })
  }

  lastAssistantMessage(): Locator {
    return this.assistantMessages.last()
  }

  /** Wait until no turn is running: the Send button is back. */
  async waitUntilIdle() {
    await expect(this.stop).toBeHidden()
  }
}
