import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { CardPicker } from './components/CardPicker'
import { CardReveal } from './components/CardReveal'
import type { pickCardTool } from './tool'

/** The browser half of the plugin: the component that answers its question, and its result view (the tool stays on the server). */
export const pickCardPlugin = makePlugin<typeof pickCardTool>('pick_card')
  .onElicit({ pickCard: CardPicker })
  .resultView(CardReveal)
  .build()
