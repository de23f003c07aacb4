import { expect, type Locator, type Page } from '@playwright/test'
import { ToolCallCard } from '@/lib/plugins/kit/testing/tool-call-card'

/** One pick_card tool call: the CardPicker, its analysis, and the reveal. */
export class PickCardCard extends ToolCallCard {
  readonly picker: Locator
  readonly cards: Locator
  readonly analysis: Locator
  readonly decline: Locator
  readonly result: Locator
  readonly outcome: Locator
  readonly pickedCard: Locator
  readonly secretCard: Locator
  readonly noPick: Locator

  /** The nth pick_card card in the conversation (0-based, in order of appearance). */
  static nth(page: Page, index = 0): PickCardCard {
    return new PickCardCard(PickCardCard.all(page).nth(index))
  }

  static all(page: Page): Locator {
    return ToolCallCard.all(page, 'pick_card')
  }

  constructor(root: Locator) {
    super(root)
    this.picker = root.getByRole('region', { name: 'Pick a card' })
    this.cards = this.picker.getByRole('button', { name: /#\d+, / })
    this.analysis = this.picker.getByRole('complementary', { name: 'Card analysis' })
    this.decline = this.picker.getByRole('button', { name: 'Decline' })
    this.result = root.getByRole('region', { name: 'Card result' })
    this.outcome = this.result.getByRole('heading')
    this.pickedCard = this.result.getByTestId('picked-card')
    this.secretCard = this.result.getByTestId('secret-card')
    this.noPick = root.getByRole('region', { name: 'No card picked' })
  }

  /** The card button numbered `number` (from 1), named by what it shows, then in words: "Q♥ #2, Queen of Hearts". */
  card(number: number): Locator {
    return this.picker.getByRole('button', { name: new RegExp(`#${number}, `) })
  }

  /** The name in words of card `number`, e.g. "Queen of Hearts". */
  async cardName(number: number): Promise<string> {
    const label = (await this.card(number).getAttribute('aria-label')) ?? ''
    return label.replace(/^.*?#\d+, /, '').replace(/, suggested$/, '')
  }

  /** Pick card `number`; returns its name, e.g. "Queen of Hearts". */
  async pick(number: number): Promise<string> {
    const card = this.card(number)
    await expect(card).toBeEnabled()
    const name = await this.cardName(number)
    await card.click()
    return name
  }
}
