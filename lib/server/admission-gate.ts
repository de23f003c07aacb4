import http from 'node:http'
import { addressKey } from '../engine/client-address'
import type { Admission } from '../engine/admission'

const INSTALLED = Symbol.for('elicit-chat.admission-gate')

/**
 * PROTOTYPE (issue 28, "Measured"): under a flood, an answer waits for the flood's requests
 * ahead of it in the event loop, not for admission. Node reads every connection that has data
 * in one pass of the event loop (its poll phase) and Next handles each request it reads there
 * to the end before reading the next (~1.2 ms each, refused or not: Next's floor, before any
 * route runs). With C flood connections, each pass carries C flood requests, and an answer,
 * which needs a pass or two, waits C × 1.2 ms in each: measured in-server, an answer took the
 * same 2.4 ms with the flood as without, while the client waited 20 ms for it.
 *
 * So, before Next sees a request: a `POST` to one of `paths` from an address whose new work
 * would be refused now (`admission.pressing`: the server is down to its reserve and the
 * address is not light) is held, and `perTurn` held requests are handed to Next per turn of
 * the event loop (from `setImmediate`, after the poll phase), in the order they came. Nothing
 * is refused here: a held request is answered as it would have been (an answer in it still has
 * its priority once read), a turn or a few later. Everything else goes to Next at once, so a
 * light client's request waits behind at most `perTurn` flood requests a turn.
 * Memory: one closure per held request, at most one per open connection (HTTP/1.1).
 */
export function installAdmissionGate({
  admission,
  trustProxy,
  paths = ['/api/chat'],
  perTurn = 1,
}: {
  admission: Admission
  trustProxy: boolean
  paths?: string[]
  perTurn?: number
}): void {
  const prototype = http.Server.prototype as http.Server & { [INSTALLED]?: boolean }
  if (prototype[INSTALLED]) return
  prototype[INSTALLED] = true
  const emit = prototype.emit
  const held: Array<() => void> = []
  let from = 0
  let scheduled = false
  const pump = () => {
    scheduled = false
    for (let index = 0; index < perTurn && from < held.length; index++) held[from++]!()
    if (from === held.length) (held.length = 0), (from = 0)
    else schedule()
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(pump)
  }
  prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    const pass = () => (emit as (event: string | symbol, ...args: unknown[]) => boolean).apply(this, [event, ...args])
    if (event !== 'request') return pass()
    const request = args[0] as http.IncomingMessage
    const response = args[1] as http.ServerResponse
    if (request.method !== 'POST' || !paths.includes((request.url ?? '').split('?')[0]!)) return pass()
    if (!admission.pressing(addressOf(request, trustProxy))) return pass()
    held.push(() => {
      if (!request.destroyed && !response.destroyed) pass()
    })
    schedule()
    return true
  } as typeof prototype.emit
}

function addressOf(request: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for']
    const last = (Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1)?.trim()
    return last ? addressKey(last) : 'unknown'
  }
  return request.socket?.remoteAddress ? addressKey(request.socket.remoteAddress) : 'unknown'
}
