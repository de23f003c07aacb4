import { describe, expect, it } from 'vitest'
import { choiceFromKey, type ChoiceBox } from './choice-from-key'

/** Boxes of `count` choices laid out `columns` to a row, 100 wide and 40 high. */
function grid(count: number, columns: number): ChoiceBox[] {
  return Array.from({ length: count }, (_, index) => ({ top: Math.floor(index / columns) * 48, left: (index % columns) * 108, width: 100, height: 40 }))
}

describe('choiceFromKey', () => {
  it('moves through a one-column list with every arrow, without wrapping', () => {
    const boxes = grid(3, 1)
    expect(choiceFromKey({ from: 0, key: 'ArrowDown', boxes })).toBe(1)
    expect(choiceFromKey({ from: 1, key: 'ArrowRight', boxes })).toBe(2)
    expect(choiceFromKey({ from: 2, key: 'ArrowDown', boxes })).toBeUndefined()
    expect(choiceFromKey({ from: 2, key: 'ArrowUp', boxes })).toBe(1)
    expect(choiceFromKey({ from: 0, key: 'ArrowLeft', boxes })).toBeUndefined()
  })

  it('moves by row in a grid, to the choice standing nearest across', () => {
    // 7 choices, 3 to a row: 0 1 2 / 3 4 5 / 6
    const boxes = grid(7, 3)
    expect(choiceFromKey({ from: 1, key: 'ArrowDown', boxes })).toBe(4)
    expect(choiceFromKey({ from: 4, key: 'ArrowUp', boxes })).toBe(1)
    expect(choiceFromKey({ from: 5, key: 'ArrowDown', boxes })).toBe(6)
    expect(choiceFromKey({ from: 6, key: 'ArrowDown', boxes })).toBeUndefined()
    expect(choiceFromKey({ from: 2, key: 'ArrowRight', boxes })).toBe(3)
  })

  it('goes to the first and last with Home and End, and ignores other keys', () => {
    const boxes = grid(5, 2)
    expect(choiceFromKey({ from: 3, key: 'Home', boxes })).toBe(0)
    expect(choiceFromKey({ from: 1, key: 'End', boxes })).toBe(4)
    expect(choiceFromKey({ from: 1, key: 'Enter', boxes })).toBeUndefined()
  })
})
