/**
 * Reading the cell a model chose from its free-text reply. Only the reading: whether the
 * cell is free is the game's business.
 */

// "cell 5", "Move: 5", "take 5", "square #5", "position number 5"
const CUED_NUMBER = /\b(?:cell|square|position|spot|space|move|take|taking|play|playing|choose|pick|go(?: for| with)?)\b\s*(?:number\s*)?(?:no\.?\s*)?[:#=-]?\s*\*{0,2}([1-9])(?!\d|\.\d)/i
const BARE_NUMBER = /(?<![\d.])([1-9])(?![\d]|\.\d)/g

const ROWS: Record<string, number> = { top: 0, upper: 0, middle: 1, center: 1, centre: 1, bottom: 2, lower: 2 }
const COLUMNS: Record<string, number> = { left: 1, middle: 2, center: 2, centre: 2, right: 3 }
// "top left", "top-left corner", "bottom middle", "middle right"
const NAMED_CELL = /\b(top|upper|middle|center|centre|bottom|lower)[\s-]+(left|middle|center|centre|right)\b/i
const CENTRE = /\b(?:the\s+)?(?:center|centre|middle)\b/i

/**
 * The cell (1-9) a reply names, or undefined when it names none, or several.
 *
 * @example
 * parseMoveReply('5') // 5
 * parseMoveReply("I'll take cell 7, blocking you.") // 7
 * parseMoveReply('Top right corner') // 3
 * parseMoveReply('Hmm, 3 or 7?') // undefined
 */
export function parseMoveReply(reply: string): number | undefined {
  const text = reply.trim()
  if (!text) return undefined

  const cued = CUED_NUMBER.exec(text)
  if (cued) return Number(cued[1])

  const numbers = new Set(Array.from(text.matchAll(BARE_NUMBER), (match) => Number(match[1])))
  if (numbers.size === 1) return [...numbers][0]
  if (numbers.size > 1) return undefined

  const named = NAMED_CELL.exec(text)
  if (named) {
    const row = ROWS[named[1].toLowerCase()]
    const column = COLUMNS[named[2].toLowerCase()]
    return row * 3 + column
  }
  return CENTRE.test(text) ? 5 : undefined
}
