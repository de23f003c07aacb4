import type { PluginElicitRequestEvent } from '../protocol/events'
import { parseElicitId } from '../tools/elicit-id'
import { decodeModelContext } from '../tools/model-context'
import type { PluginElicitRequest } from './types'

/** Read a `plugin_elicit_request` event into what a plugin handler receives. */
export function toPluginElicitRequest(event: PluginElicitRequestEvent): PluginElicitRequest {
  const decoded = decodeModelContext({ message: event.message, schema: event.schema })
  const id = parseElicitId(event.elicitId) ?? { toolName: event.toolName, key: event.key, callId: event.callId, seq: 0 }
  return {
    id,
    elicitId: event.elicitId,
    sessionId: event.sessionId,
    toolName: event.toolName,
    key: event.key,
    callId: event.callId,
    seq: id.seq,
    message: decoded.message,
    schema: event.schema,
    context: decoded.context,
    choices: event.choices ?? {},
    defaults: event.defaults ?? {},
  }
}
