import 'server-only'
import type { Operation } from 'effection'
import { z } from 'zod'
import { askUntilValid } from '@/lib/plugins/kit'
import { createBranchTool, field, question } from '@/lib/tools'
import { cardName, cardSchema, drawCards, formatCardList, pickRandom, sameCard, shortCardName, type Card } from './cards'

/** What the analysis sub-branch asks the model for, for a hand of `count` cards. */
export function analysisSchemaFor(count: number) {
  return z.object({
    summary: z.string().min(1).describe('One or two sentences about the hand as a whole'),
    favourite: z.number().int().min(1).max(count).describe(`The number of the card you would pick, 1 to ${count}`),
    reason: z.string().min(1).describe('Why that card, in one sentence'),
  })
}
export type CardAnalysis = z.infer<ReturnType<typeof analysisSchemaFor>>

const analysisShape = z.object({ summary: z.string(), favourite: z.number().int().min(1), reason: z.string() })

export type PickCardResult =
  | {
      status: 'picked'
      isWinner: boolean
      pickedNumber: number
      picked: Card
      pickedName: string
      secret: Card
      secretName: string
      /** The whole hand, as offered. */
      cards: Card[]
    }
  | { status: 'cancelled'; message: string }

type ClientResult = { action: 'picked'; cardNumber: number } | { action: 'declined' }

export const pickCardTool = createBranchTool('pick_card')
  .description(
    'A guessing game: draws playing cards, one of which is secretly the winning card, and lets the user pick one. ' +
      'Optionally analyses the hand first. Returns the card picked, the secret card and whether the user won.',
  )
  .parameters(
    z.object({
      count: z.number().int().min(2).max(10).default(5).describe('How many cards to draw, 2 to 10 (default 5)'),
      analyze: z
        .boolean()
        .default(false)
        .describe('Whether to analyse the cards before the user picks (when they ask for analysis, advice or help)'),
    }),
  )
  .title(({ count, analyze }) => `Pick one of ${count} cards${analyze ? ', with analysis' : ''}`)
  .elicits({
    pickCard: question({
      response: z.object({ cardNumber: z.number().int().min(1).meta({ title: 'Card', description: 'The number of the chosen card, 1 for the first' }) }),
      // Strict: the secret card cannot ride along to the browser in an extra field.
      context: z.strictObject({ cards: z.array(cardSchema).min(1), analysis: analysisShape.optional() }),
      // One choice per card of the hand, as it is shown (face up); the analysis's favourite marked.
      form: ({ cards, analysis }) => ({
        cardNumber: field.choice(
          'Card',
          cards.map((card, index) => {
            const number = index + 1
            const suggested = analysis?.favourite === number ? ' — suggested' : ''
            return { value: String(number), title: `Card ${number}: ${cardName(card)} (${shortCardName(card)})${suggested}`, answer: { cardNumber: number } }
          }),
        ),
      }),
    }),
  })
  .requires({ elicitation: true, sampling: true })
  .limits({ maxDepth: 1, maxTokens: 4000, timeout: 30_000 })
  .handoff({
    // On the server: the draw and the secret are made once, and the secret stays here.
    *before({ count, analyze }) {
      const cards = drawCards(count)
      return { cards, secret: pickRandom(cards), analyze }
    },

    *client({ cards, analyze }, ctx): Operation<ClientResult> {
      yield* ctx.log('info', `Drew ${cards.length} cards`)

      let analysis: CardAnalysis | undefined
      if (analyze) {
        yield* ctx.notify('Analysing the cards', 0.3)
        analysis = yield* ctx.branch(
          function* (sub) {
            const result = yield* sub.sample({
              prompt: analysisPrompt(cards),
              schema: analysisSchemaFor(cards.length),
              maxTokens: 400,
            })
            return result.value
          },
          { inheritMessages: false, maxDepth: 1 },
        )
        yield* ctx.log('info', `The analysis suggests card ${analysis.favourite}`)
      }

      const pick = yield* askUntilValid({
        *ask(problem) {
          yield* ctx.notify('Waiting for your pick', 0.6)
          return yield* ctx.elicit('pickCard', {
            message: pickMessage({ prompt: problem ?? 'Pick a card! One of them is the secret card.', cards, analysis }),
            cards: [...cards],
            ...(analysis ? { analysis } : {}),
          })
        },
        check: ({ cardNumber }) =>
          cardNumber <= cards.length
            ? { value: cardNumber }
            : { problem: `Card ${cardNumber} is not one of the ${cards.length} cards. Pick a card from 1 to ${cards.length}:` },
      })
      // The reveal that follows is immediate: the game is done once the user has answered.
      yield* ctx.notify(pick.action === 'accept' ? `You picked card ${pick.value}` : 'No card was picked', 1)
      return pick.action === 'accept' ? { action: 'picked', cardNumber: pick.value } : { action: 'declined' }
    },

    // On the server again: the reveal.
    *after({ cards, secret }, clientResult): Operation<PickCardResult> {
      if (clientResult.action === 'declined') return { status: 'cancelled', message: 'No card was picked.' }
      const picked = cards[clientResult.cardNumber - 1]
      if (!picked) throw new RangeError(`Card ${clientResult.cardNumber} is not one of the ${cards.length} cards.`)
      return {
        status: 'picked',
        isWinner: sameCard(picked, secret),
        pickedNumber: clientResult.cardNumber,
        picked,
        pickedName: cardName(picked),
        secret,
        secretName: cardName(secret),
        cards,
      }
    },
  })

function analysisPrompt(cards: readonly Card[]): string {
  return [
    `Here are ${cards.length} playing cards, numbered:`,
    formatCardList(cards),
    '',
    `One of them is a secret winning card, chosen at random. Which card would you pick, and why? ` +
      `Give a short summary of the hand, the number of your favourite card (1 to ${cards.length}) and a one-sentence reason.`,
  ].join('\n')
}

/** The question, the cards as text (for clients that show only the message), and the analysis if any. */
function pickMessage({ prompt, cards, analysis }: { prompt: string; cards: readonly Card[]; analysis?: CardAnalysis }): string {
  const parts = [prompt, formatCardList(cards)]
  if (analysis) parts.push(`Analysis: ${analysis.summary}\nSuggested: card ${analysis.favourite} — ${analysis.reason}`)
  return parts.join('\n\n')
}
