import { expect, type Locator, type Page } from '@playwright/test'
import { ToolCallCard } from '@/lib/plugins/kit/testing/tool-call-card'

/** One tictactoe tool call: the board on the user's turn, the moves made, and the result. */
export class TicTacToeCard extends ToolCallCard {
  readonly board: Locator
  readonly resign: Locator
  readonly lastModelMove: Locator
  readonly result: Locator
  readonly outcome: Locator
  readonly finalBoard: Locator
  readonly winningCells: Locator

  /** The nth tictactoe card in the conversation (0-based, in order of appearance). */
  static nth(page: Page, index = 0): TicTacToeCard {
    return new TicTacToeCard(TicTacToeCard.all(page).nth(index))
  }

  static all(page: Page): Locator {
    return ToolCallCard.all(page, 'tictactoe')
  }

  constructor(root: Locator) {
    super(root)
    this.board = root.getByRole('grid', { name: 'Tic-tac-toe board' })
    this.resign = root.getByRole('button', { name: 'Resign' })
    this.lastModelMove = this.board.locator('button[data-last-move]')
    this.result = root.getByRole('region', { name: 'Game result' })
    this.outcome = this.result.getByRole('heading')
    this.finalBoard = this.result.getByRole('grid', { name: 'Final board' })
    this.winningCells = this.finalBoard.getByRole('gridcell', { name: /winning line$/ })
  }

  /** Cell 1-9 of the board waiting for a move; its name says what is in it ("Cell 5, empty"). */
  cell(cell: number): Locator {
    return this.board.getByRole('button', { name: new RegExp(`^Cell ${cell}, `) })
  }

  /** The line a move folds into once made, its cell by where it is and its number: "Your move Top left (1)". */
  moveMade(cell: number): Locator {
    return this.answerLine(new RegExp(`^Your move .+ \\(${cell}\\)$`))
  }

  /** Click an empty cell and wait until the move is made (its board folds away). */
  async play(cell: number) {
    await expect(this.cell(cell)).toHaveAccessibleName(`Cell ${cell}, empty`)
    await expect(this.cell(cell)).toBeEnabled()
    await this.cell(cell).click()
    await expect(this.moveMade(cell)).toBeVisible()
  }

  /** Play these cells in order, each after the model's reply. */
  async playAll(cells: number[]) {
    for (const cell of cells) await this.play(cell)
  }

  /** The final board, cell by cell: "X", "O" or "" for empty. */
  async finalCells(): Promise<string[]> {
    const names = await this.finalBoard.getByRole('gridcell').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('aria-label') ?? ''))
    return names.map((name) => /^Cell \d, (X|O)/.exec(name)?.[1] ?? '')
  }
}
