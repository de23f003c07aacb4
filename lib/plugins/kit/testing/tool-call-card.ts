import type { Locator, Page } from '@playwright/test'

/**
 * The base of a plugin's page object: one call of its tool in the conversation, found by the
 * card's role and accessible name ("Tool call <tool name>"). A plugin's page object extends it
 * with the locators of its own components.
 *
 * @example
 * export class GreetCard extends ToolCallCard {
 *   static readonly toolName = 'greet'
 *   static nth(page: Page, index = 0) { return new GreetCard(ToolCallCard.all(page, GreetCard.toolName).nth(index)) }
 *   readonly nameField = this.root.getByRole('textbox', { name: 'Name' })
 * }
 */
export class ToolCallCard {
  /** The tool's status badge ("Waiting for you", "Done", …). */
  readonly status: Locator
  /** The tool's progress bar, while it reports progress. */
  readonly progress: Locator
  /** Where the tool's questions (its components) are shown. */
  readonly elicitation: Locator
  /** The card's heading: the call's title, when its tool gives one. */
  readonly title: Locator
  /**
   * The one line each question folds to once answered or stopped, what was asked and what was
   * answered ("Seat 10A · window"): a disclosure button that shows the question again.
   */
  readonly answerLines: Locator

  /** Every call of `toolName` in the conversation, in order of appearance. */
  static all(page: Page, toolName: string): Locator {
    return page.getByRole('group', { name: `Tool call ${toolName}` })
  }

  constructor(readonly root: Locator) {
    this.status = root.getByTestId('tool-status')
    this.progress = root.getByRole('progressbar', { name: 'Tool progress' })
    this.elicitation = root.getByTestId('elicitation')
    this.title = root.getByTestId('tool-title')
    this.answerLines = root.getByTestId('answer-line')
  }

  /** The answer line that says `text`, e.g. `answerLine(/^Seat 10A/)`. */
  answerLine(text: string | RegExp): Locator {
    return this.answerLines.filter({ hasText: text })
  }
}
