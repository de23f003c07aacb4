/** Where a choice is drawn: its box on the screen. */
export interface ChoiceBox {
  top: number
  left: number
  width: number
  height: number
}

/**
 * Which choice a key moves the focus to, from choice `from`, among choices drawn in `boxes`
 * (in reading order): Left and Right to the previous and next one, Home and End to the first
 * and last; Up and Down to the nearest one on the row above or below, by where it stands
 * across — in a one-column list, the previous and next. Nothing wraps. `undefined` for a key
 * that moves nothing.
 */
export function choiceFromKey({ from, key, boxes }: { from: number; key: string; boxes: readonly ChoiceBox[] }): number | undefined {
  const last = boxes.length - 1
  switch (key) {
    case 'Home':
      return 0
    case 'End':
      return last
    case 'ArrowLeft':
      return from > 0 ? from - 1 : undefined
    case 'ArrowRight':
      return from < last ? from + 1 : undefined
    case 'ArrowUp':
    case 'ArrowDown':
      return nearestOnNextRow({ from, boxes, down: key === 'ArrowDown' })
    default:
      return undefined
  }
}

function nearestOnNextRow({ from, boxes, down }: { from: number; boxes: readonly ChoiceBox[]; down: boolean }): number | undefined {
  const origin = boxes[from]
  if (!origin) return undefined
  const middle = (box: ChoiceBox) => box.top + box.height / 2
  const across = (box: ChoiceBox) => box.left + box.width / 2
  // A box is on another row when its middle is past this box's edge.
  const beyond = boxes
    .map((box, index) => ({ box, index }))
    .filter(({ box }) => (down ? middle(box) > origin.top + origin.height : middle(box) < origin.top))
  if (beyond.length === 0) return undefined
  const rowMiddle = down ? Math.min(...beyond.map(({ box }) => middle(box))) : Math.max(...beyond.map(({ box }) => middle(box)))
  const row = beyond.filter(({ box }) => Math.abs(middle(box) - rowMiddle) < origin.height / 2)
  row.sort((a, b) => Math.abs(across(a.box) - across(origin)) - Math.abs(across(b.box) - across(origin)))
  return row[0]?.index
}
