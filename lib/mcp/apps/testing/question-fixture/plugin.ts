import type { PluginClientRegistration } from '../../../../plugins/types'
import { ColourPicker } from './ColourPicker'
import { SizePicker } from './SizePicker'

/**
 * The fixture's browser half: both questions answered by components (each also an MCP App).
 * Written as the registration object itself, so the MCP Apps build is tested on the contract's
 * type alone, whatever builds it.
 */
export const paintPosterPlugin: PluginClientRegistration = {
  toolName: 'paint_poster',
  handlers: {},
  components: {
    pickColour: ColourPicker,
    pickSize: SizePicker,
  },
}
