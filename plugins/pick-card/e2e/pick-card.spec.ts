import { expect, test } from '@playwright/test'
import { ChatPage } from '@/e2e/pages/chat-page'
import { PickCardCard } from './pick-card-card'

const CARD_NAME = /^(?:[2-9JQKA]|10)[♥♦♣♠] #\d+, (?:Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (?:Hearts|Diamonds|Clubs|Spades)(?:, suggested)?$/

test.describe('picking a card in the chat', () => {
  test('pick a card: the picked and the secret card are revealed, with win or lose, and the assistant comments', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Pick a card')

    const game = PickCardCard.nth(page)
    await expect(game.picker).toBeVisible()
    await expect(game.cards).toHaveCount(5)
    for (const card of await game.cards.all()) await expect(card).toHaveAccessibleName(CARD_NAME)
    await expect(game.analysis).toHaveCount(0)
    await expect(game.result).toHaveCount(0)

    // Keyboard: Tab onto the cards, arrow to the third, Enter picks it.
    await game.card(1).focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expect(game.card(3)).toBeFocused()
    const name = await game.cardName(3)
    await page.keyboard.press('Enter')

    await expect(game.result).toBeVisible()
    await expect(game.pickedCard).toHaveText(name)
    await expect(game.secretCard).toHaveText(/ of /)
    const secret = (await game.secretCard.textContent()) ?? ''
    await expect(game.outcome).toHaveText(secret === name ? 'You win!' : 'Not this time')
    // The picker folds to the card picked, said once; nothing greyed out is left.
    await expect(game.picker).toHaveCount(0)
    await expect(game.answerLines).toHaveText([new RegExp(`^Card 3: ${name} \\(.+\\)$`)])
    await expect(game.root.locator('button:disabled')).toHaveCount(0)
    await expect(game.title).toHaveText('Pick one of 5 cards')

    await expect(chat.lastAssistantMessage()).toContainText(`You picked the ${name}`)
    await expect(chat.lastAssistantMessage()).toContainText(secret === name ? 'You win!' : `the secret card was the ${secret}`)
    await chat.waitUntilIdle()
  })

  test('pick a card with analysis: the analysis suggests a card before the pick', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Pick a card and analyze them')

    const game = PickCardCard.nth(page)
    await expect(game.analysis).toBeVisible()
    await expect(game.analysis).toContainText(/Suggested: Card \d: .+ of /)
    await expect(game.cards).toHaveCount(5)

    const suggested = Number((await game.analysis.textContent())?.match(/Suggested: Card (\d)/)?.[1])
    const name = await game.pick(suggested)
    await expect(game.pickedCard).toHaveText(name)
    await expect(game.outcome).toHaveText(/^(You win!|Not this time)$/)
    await expect(chat.lastAssistantMessage()).toContainText(`You picked the ${name}`)
  })

  test('declining ends the game with no card picked', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Draw 7 cards')
    const game = PickCardCard.nth(page)
    await expect(game.cards).toHaveCount(7)
    await game.decline.click()

    await expect(game.noPick).toContainText('No card picked')
    await expect(game.result).toHaveCount(0)
    await expect(game.answerLines).toHaveText(['Card Declined'])
    await expect(game.cards).toHaveCount(0)
    await expect(chat.lastAssistantMessage()).toContainText(/no card was picked/i)
    await chat.waitUntilIdle()
  })
})
