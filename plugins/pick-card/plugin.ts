import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { CardPicker } from './components/CardPicker'
import { CardReveal } from './components/CardReveal'
import type { pickCardTool } from './tool'

/** The browser half of the plugin: its handlers and components (the tool stays on the server). */
export const pickCardPlugin = makePlugin<typeof pickCardTool>('pick_card')
  .onElicit({
    *pickCard(request, ctx) {
      const choice = yield* ctx.render(CardPicker, {
        message: request.message,
        cards: request.cards,
        ...(request.analysis ? { analysis: request.analysis } : {}),
      })
      return choice.action === 'accept' ? { action: 'accept', content: { cardNumber: choice.cardNumber } } : { action: 'decline' }
    },
  })
  .resultView(CardReveal)
  .build()
