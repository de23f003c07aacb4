/** One numbered line of a prompt, e.g. `3. Queen of Hearts (Q♥)`. */
export interface PromptChoice {
  number: number
  label: string
}

/** What the offline model can read from a prompt to fill in an answer sensibly. */
export interface PromptHints {
  /** The prompt itself, whitespace collapsed. */
  topic: string
  /** The numbered choices the prompt lists, in order. */
  choices: PromptChoice[]
  /** The choice the offline model prefers, when there are choices. */
  favourite?: PromptChoice
  /** Why the favourite was preferred, as a clause: "ranks highest of the 5 cards". */
  because?: string
  /** What the choices are, when they are recognisably one kind of thing ("card"). */
  noun?: string
  /** A sentence about the choices as a whole, when the offline model knows what they are. */
  summary?: string
}

const NUMBERED_LINE = /^\s*(?:(?:card|option|item|choice|no\.?)\s*)?#?(\d{1,3})\s*[.):\]-]\s+(\S.*?)\s*$/gim

/**
 * The numbered choices in a prompt and which one the offline model would take: playing cards
 * by rank, anything else by a stable hash of the prompt (the same prompt, the same choice).
 *
 * @example
 * readPromptHints('Which card?\n1. Two of Clubs (2♣)\n2. Queen of Hearts (Q♥)').favourite
 * // { number: 2, label: 'Queen of Hearts (Q♥)' }
 */
export function readPromptHints(prompt: string): PromptHints {
  const topic = prompt.replace(/\s+/g, ' ').trim()
  const choices = numberedChoices(prompt)
  if (choices.length === 0) return { topic, choices }

  const ranks = choices.map((choice) => cardRank(choice.label))
  if (ranks.every((rank) => rank !== undefined)) {
    const best = ranks.indexOf(Math.max(...(ranks as number[])))
    const worst = ranks.indexOf(Math.min(...(ranks as number[])))
    return {
      topic,
      choices,
      favourite: choices[best],
      noun: 'card',
      because: `ranks highest of the ${choices.length} cards`,
      summary: describeHand(choices, choices[best]!, choices[worst]!),
    }
  }
  const favourite = choices[hash(topic) % choices.length]
  return { topic, choices, favourite, because: `looks like the best fit of the ${choices.length} listed` }
}

/** The choices of the longest run of lines numbered 1, 2, 3, …. */
function numberedChoices(prompt: string): PromptChoice[] {
  let best: PromptChoice[] = []
  let run: PromptChoice[] = []
  for (const match of prompt.matchAll(NUMBERED_LINE)) {
    const choice = { number: Number(match[1]), label: match[2]!.replace(/[.;,]$/, '') }
    if (choice.number === 1) run = [choice]
    else if (choice.number === run.length + 1) run.push(choice)
    else continue
    if (run.length > best.length) best = run
  }
  return best
}

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
const RED = /\b(?:hearts|diamonds)\b|[♥♦♡♢]/i

/** "5 cards, three red and two black: the highest is the King of Spades, the lowest the Two of Hearts." */
function describeHand(cards: PromptChoice[], highest: PromptChoice, lowest: PromptChoice): string {
  const red = cards.filter((card) => RED.test(card.label)).length
  const black = cards.length - red
  const count = (n: number) => COUNT_WORDS[n] ?? String(n)
  const colours = black === 0 ? 'all red' : red === 0 ? 'all black' : `${count(red)} red and ${count(black)} black`
  return `${cards.length} cards, ${colours}: the highest is the ${plainLabel(highest)}, the lowest the ${plainLabel(lowest)}.`
}

/** A choice's label without a trailing parenthesis: "Queen of Hearts (Q♥)" → "Queen of Hearts". */
export function plainLabel(choice: PromptChoice): string {
  return choice.label.replace(/\s*\([^)]*\)$/, '') || choice.label
}

const RANK_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  jack: 11,
  queen: 12,
  king: 13,
  ace: 14,
}
const RANK_LETTERS: Record<string, number> = { J: 11, Q: 12, K: 13, A: 14 }
const NAMED_CARD = /\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)\s+of\s+(?:hearts|diamonds|clubs|spades)\b/i
const SHORT_CARD = /(?:^|[\s(])(10|[2-9]|[JQKA])\s*[♥♦♣♠♡♢♧♤]/

/** A playing card's rank (2…14, aces high) when the text names one; otherwise undefined. */
export function cardRank(text: string): number | undefined {
  const named = NAMED_CARD.exec(text)
  if (named) return RANK_WORDS[named[1]!.toLowerCase()]
  const short = SHORT_CARD.exec(text)
  if (short) return RANK_LETTERS[short[1]!] ?? Number(short[1])
  return undefined
}

export function hash(text: string): number {
  let value = 2166136261
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619) >>> 0
  return value
}
