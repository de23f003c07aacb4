/** A title made from a message is at most this many characters. */
export const MADE_TITLE_MAX_CHARS = 60
/** A title given by a rename is at most this many characters. */
export const TITLE_MAX_CHARS = 120

/**
 * A chat's title from its first message: the text on one line, trimmed, cut at a word boundary
 * to at most 60 characters with "…" when cut (a word longer than that is cut where it must).
 *
 * @example
 * titleFrom('  Book a flight from NYC to LAX\nfor tomorrow ') // 'Book a flight from NYC to LAX for tomorrow'
 */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= MADE_TITLE_MAX_CHARS) return line
  const room = line.slice(0, MADE_TITLE_MAX_CHARS - 1)
  const space = room.lastIndexOf(' ')
  return `${(space > MADE_TITLE_MAX_CHARS / 2 ? room.slice(0, space) : room).trimEnd()}…`
}
