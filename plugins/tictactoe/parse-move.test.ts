import { describe, expect, it } from 'vitest'
import { parseMoveReply } from './parse-move'

describe('parseMoveReply', () => {
  it.each([
    ['5', 5],
    [' 7\n', 7],
    ['Move: 5', 5],
    ['My move: 3.', 3],
    ["I'll take cell 5", 5],
    ["I'll take cell 9, blocking your diagonal.", 9],
    ['Cell 2', 2],
    ['square #4', 4],
    ['**6**', 6],
    ['I play 1 — the corner.', 1],
    ['Taking 8 because cell 5 is taken', 8],
    ['center', 5],
    ["I'll take the centre.", 5],
    ['Top left', 1],
    ['top-right corner', 3],
    ['bottom middle', 8],
    ['middle left', 4],
    ['Lower right corner, please', 9],
  ])('reads %j as cell %d', (reply, cell) => {
    expect(parseMoveReply(reply)).toBe(cell)
  })

  it.each([
    [''],
    ['   '],
    ['I am not sure.'],
    ['0'],
    ['10'],
    ['Either 3 or 7'],
    ['X | 2 | O\n4 | 5 | 6\n7 | 8 | 9'],
    ['2.5'],
  ])('finds no cell in %j', (reply) => {
    expect(parseMoveReply(reply)).toBeUndefined()
  })
})
