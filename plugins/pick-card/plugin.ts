import { makePlugin } from '@/lib/plugins'
import { CardPicker } from './components/CardPicker'
import { CardReveal } from './components/CardReveal'
import { pickCardTool } from './tool'

export const pickCardPlugin = makePlugin(pickCardTool)
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
