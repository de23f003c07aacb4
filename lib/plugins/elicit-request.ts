import type { PluginElicitRequestEvent } from '../protocol/events'
import { parseElicitId } from '../protocol/elicit-id'
import { decodeModelContext } from '../tools/model-context'
import type { PluginElicitRequest } from './types'

/**
 * Read a `plugin_elicit_request` event into the question the browser keeps: the one place the
 * browser parses an elicit id and decodes a context, once, as the event arrives (the chat's
 * reducer calls it). Everything after reads the result.
 */
export function toPluginElicitRequest(event: Omit<PluginElicitRequestEvent, 'type'>): PluginElicitRequest {
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
    fieldTitles: event.fieldTitles ?? {},
    choiceAnswers: event.choiceAnswers ?? {},
    defaults: event.defaults ?? {},
    ...(event.form ? { form: event.form } : {}),
  }
}
