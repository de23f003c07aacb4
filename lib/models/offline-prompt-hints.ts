import { stableHash as hash } from '../tools/stable-hash'
import { MAX_READ_CHARS } from './offline-skill'

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

// Spaces and tabs only, never `\s`: a run of blank lines must not be rescanned from each of its starts.
const NUMBERED_LINE = /^[ \t]*(?:(?:card|option|item|choice|no\.?)[ \t]*)?#?(\d{1,3})[ \t]*[.):\]-][ \t]+(\S[^\n]*)/gim

/**
 * The numbered choices in a prompt and which one the offline model would take: by a stable
 * hash of the prompt (the same prompt, the same choice). A skill that knows what the choices
 * are (cards, dishes) passes its own favourite and wording to `createStructuredValue`.
 *
 * @example
 * readPromptHints('Which one?\n1. Tea\n2. Coffee').choices
 * // [{ number: 1, label: 'Tea' }, { number: 2, label: 'Coffee' }]
 */
export function readPromptHints(prompt: string): PromptHints {
  const topic = prompt.slice(0, MAX_READ_CHARS).replace(/\s+/g, ' ').trim()
  const choices = readNumberedChoices(prompt)
  if (choices.length === 0) return { topic, choices }
  const favourite = choices[hash(topic) % choices.length]
  return { topic, choices, favourite, because: `looks like the best fit of the ${choices.length} listed` }
}

/** The choices of the longest run of lines numbered 1, 2, 3, …, in the first `MAX_READ_CHARS` of the prompt. */
export function readNumberedChoices(prompt: string): PromptChoice[] {
  let best: PromptChoice[] = []
  let run: PromptChoice[] = []
  for (const match of prompt.slice(0, MAX_READ_CHARS).matchAll(NUMBERED_LINE)) {
    const choice = { number: Number(match[1]), label: match[2]!.trimEnd().replace(/[.;,]$/, '') }
    if (choice.number === 1) run = [choice]
    else if (choice.number === run.length + 1) run.push(choice)
    else continue
    if (run.length > best.length) best = run
  }
  return best
}

/** A choice's label without a trailing parenthesis: "Queen of Hearts (Q♥)" → "Queen of Hearts". */
export function plainLabel(choice: PromptChoice): string {
  return choice.label.replace(/\s*\([^)]*\)$/, '') || choice.label
}

