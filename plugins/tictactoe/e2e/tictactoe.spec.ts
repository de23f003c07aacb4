import { expect, test } from '@playwright/test'
import { ChatPage } from '@/e2e/pages/chat-page'
import { TicTacToeCard } from './tictactoe-card'

// The offline model plays O deterministically: win, else block, else centre, corner, side.
test.describe('playing tic-tac-toe in the chat', () => {
  test('a whole game won by a fork: the board, the model’s replies, the result and the comment', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say("Let's play tic-tac-toe")
    await expect(chat.assistantMessages.first()).toContainText("Let's play! You're X")

    const game = TicTacToeCard.nth(page)
    await expect(game.board).toBeVisible()
    await expect(game.board.getByRole('button')).toHaveCount(9)
    await expect(game.board.getByRole('button', { name: /^Cell \d, empty$/ })).toHaveCount(9)
    await expect(game.lastModelMove).toHaveCount(0)

    await game.play(1)
    // The model answers in the centre; the new board shows both moves and marks the model's.
    await expect(game.cell(1)).toHaveAccessibleName('Cell 1, X')
    await expect(game.cell(1)).toBeDisabled()
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 5, O, last move')
    await expect(game.root).toContainText('The model took cell 5')

    await game.play(9)
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 3, O, last move')
    await game.play(7)
    // X now threatens 4 and 8; the model can block only one.
    await expect(game.lastModelMove).toHaveAccessibleName(/^Cell [48], O, last move$/)
    const open = (await game.cell(4).getAttribute('aria-label')) === 'Cell 4, empty' ? 4 : 8
    await game.play(open)

    await expect(game.outcome).toHaveText('You won!')
    await expect(game.winningCells).toHaveCount(3)
    await expect(game.winningCells.first()).toHaveAccessibleName(/, X, winning line$/)
    await expect(game.result).toContainText('Three in a row on cells')
    await expect(game.board).toHaveCount(0)
    // Each move folded to one line; nothing greyed out is left.
    await expect(game.answerLines).toHaveText(['Your move Top left (1)', 'Your move Bottom right (9)', 'Your move Bottom left (7)', new RegExp(`^Your move .+ \\(${open}\\)$`)])
    await expect(game.root.locator('button:disabled, [aria-disabled="true"]')).toHaveCount(0)
    // A move can be looked at again: the board as it was, then that move.
    await game.moveMade(9).click()
    await expect(game.moveMade(9)).toHaveAttribute('aria-expanded', 'true')
    await expect(game.elicitation.nth(1)).toContainText('The model took cell 5, then you took cell 9')
    await game.moveMade(9).click()
    await expect(game.elicitation.nth(1)).not.toContainText('then you took')
    await expect(game.status).toHaveText('Completed')
    expect(await game.finalCells()).toEqual(['X', '', 'O', open === 4 ? 'X' : 'O', 'O', '', 'X', open === 4 ? 'O' : 'X', 'X'])
    await expect(chat.lastAssistantMessage()).toContainText('Well played — you won')
    await chat.waitUntilIdle()
  })

  test('a game lost, played with the keyboard alone once the board has focus', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('play tictactoe')
    const game = TicTacToeCard.nth(page)

    // The centre is the board's one tab stop; arrows move between empty cells.
    await expect(game.cell(5)).toHaveAttribute('tabindex', '0')
    await game.cell(5).focus()
    await page.keyboard.press('ArrowUp')
    await expect(game.cell(2)).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(game.moveMade(2)).toBeVisible()

    // The next board takes the focus, on its first empty cell (the model took the centre).
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 5, O, last move')
    await expect(game.cell(1)).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(game.cell(4)).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowRight')
    await expect(game.cell(8)).toBeFocused()
    await page.keyboard.press('Space')
    await expect(game.moveMade(8)).toBeVisible()

    await expect(game.lastModelMove).toHaveAccessibleName('Cell 1, O, last move')
    await expect(game.cell(3)).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(game.outcome).toHaveText('You lost')
    await expect(game.winningCells).toHaveCount(3)
    await expect(game.finalBoard.getByRole('gridcell', { name: 'Cell 9, O, winning line' })).toBeVisible()
    await expect(chat.lastAssistantMessage()).toContainText('I got three in a row on cells 1, 5 and 9')
  })

  test('a drawn game', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say("Let's play tic-tac-toe")
    const game = TicTacToeCard.nth(page)
    await game.playAll([5, 9, 2, 4, 7])
    await expect(game.outcome).toHaveText('Draw')
    await expect(game.winningCells).toHaveCount(0)
    expect(await game.finalCells()).toEqual(['O', 'X', 'O', 'X', 'X', 'O', 'X', 'O', 'X'])
    await expect(chat.lastAssistantMessage()).toContainText('A draw')
  })

  test('resigning mid-game ends the tool, and the chat goes on', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say("Let's play tic-tac-toe")
    const game = TicTacToeCard.nth(page)
    await game.play(1)
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 5, O, last move')
    await game.resign.click()

    await expect(game.outcome).toHaveText('You resigned')
    await expect(game.result).toContainText('After 2 moves')
    await expect(game.answerLines).toHaveText(['Your move Top left (1)', 'Your move Declined'])
    await expect(game.board).toHaveCount(0)
    await expect(chat.lastAssistantMessage()).toContainText('You resigned after 2 moves')
    await chat.waitUntilIdle()

    await chat.say('Hello')
    await expect(chat.lastAssistantMessage()).toContainText(/offline assistant/i)
  })

  test('a reload mid-game loses nothing: the moves so far and the board waiting', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say("Let's play tic-tac-toe")
    await TicTacToeCard.nth(page).playAll([1, 9])
    await expect(TicTacToeCard.nth(page).lastModelMove).toHaveAccessibleName('Cell 3, O, last move')

    await page.reload()
    const game = TicTacToeCard.nth(page)
    await expect(game.moveMade(1)).toBeVisible()
    await expect(game.moveMade(9)).toBeVisible()
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 3, O, last move')
    await game.play(7)
    const open = (await game.cell(4).getAttribute('aria-label')) === 'Cell 4, empty' ? 4 : 8
    await game.play(open)
    await expect(game.outcome).toHaveText('You won!')
  })

  test('two games in one chat, each in its own card', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say("Let's play tic-tac-toe")
    const first = TicTacToeCard.nth(page, 0)
    await first.playAll([2, 8, 3])
    await expect(first.outcome).toHaveText('You lost')
    await chat.waitUntilIdle()

    await chat.say('Another game?')
    await expect(TicTacToeCard.all(page)).toHaveCount(2)
    const second = TicTacToeCard.nth(page, 1)
    await expect(second.board.getByRole('button', { name: /^Cell \d, empty$/ })).toHaveCount(9)
    await second.playAll([5, 9, 2, 4, 7])
    await expect(second.outcome).toHaveText('Draw')
    // The first game is unchanged.
    await expect(first.outcome).toHaveText('You lost')
    await expect(chat.lastAssistantMessage()).toContainText('A draw')
    expect(await second.root.getAttribute('data-call-id')).not.toBe(await first.root.getAttribute('data-call-id'))
  })
})
