import http from 'node:http'
import { addressKey } from './client-address'
import type { Admission } from './admission'

const INSTALLED = Symbol.for('elicit-chat.admission-gate')

/**
 * Under a flood, a request that admission puts first (an answer to a waiting question) still
 * waits for the flood's requests ahead of it in the event loop. Node reads every connection that
 * has data in one pass of the event loop (its poll phase), and Next handles each request it reads
 * there to its end before the next (about 1.2 ms each, refused or not: Next's own floor, before
 * any route runs). With C flooding connections each pass carries C flood requests, and an answer,
 * which needs a pass or two, waits for all of them: measured in the server, an answer took the
 * same 2.4 ms with a flood of 8 connections as without, while its client waited 20 ms (docs/benchmarks.md,
 * "Overload"). Refusing sooner inside a route cannot help; this is before Next.
 *
 * So, before Next sees a request: a `POST` to one of `paths` from an address whose new work would
 * be refused now (`admission.pressing`: the server is down to its reserve and the address, or its
 * group, is not light) is held, and `perTurn` held requests are handed to Next per turn of the
 * event loop (from `setImmediate`, after the poll phase), in the order they came. Nothing is
 * refused here and nothing is read: a held request is answered as it would have been (an answer
 * in it keeps its priority once read), a turn or a few later. Everything else goes to Next at
 * once, so a light client's request waits behind at most `perTurn` flood requests a turn.
 *
 * Invariants: requests of one address reach Next in the order they came; a held request whose
 * client went away is dropped; memory is one closure per held request, at most one per open
 * connection (HTTP/1.1); the turn is scheduled only while something is held. Installed once per
 * process, from instrumentation, after `installPeerAddress` (it reads the address the same way).
 */
export function installAdmissionGate({
  admission,
  trustProxy,
  paths = ['/api/chat', '/api/mcp'],
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

/** The address the routes will see (clientAddressOf): the proxy's last entry when trusted and sent, else the TCP peer (as Next fills it in). */
function addressOf(request: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for']
    const last = (Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1)?.trim()
    if (last) return addressKey(last)
  }
  return request.socket?.remoteAddress ? addressKey(request.socket.remoteAddress) : 'unknown'
}
