import http from 'node:http'

const INSTALLED = Symbol.for('elicit-chat.peer-address')

/**
 * Makes `X-Forwarded-For` say who is really on the other end of the TCP connection, so that
 * route handlers (which cannot see the socket) can rate-limit by client address.
 *
 * Next's server sets `X-Forwarded-For` to the socket's peer address only when the request
 * carries none, so a client could name any address it likes. This wraps `http.Server`'s
 * `emit` so that, before Next sees a request, the header is replaced by the peer address —
 * unless `trustProxy`: then the proxy in front (the only peer) appends the address it saw, and
 * the header is left as the proxy sent it. Installed once per process, from instrumentation,
 * before the first request is handled; it changes nothing else of the request.
 */
export function installPeerAddress({ trustProxy }: { trustProxy: boolean }): void {
  const prototype = http.Server.prototype as http.Server & { [INSTALLED]?: boolean }
  if (trustProxy || prototype[INSTALLED]) return
  prototype[INSTALLED] = true
  const emit = prototype.emit
  prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage
      const peer = request.socket?.remoteAddress
      if (peer) request.headers['x-forwarded-for'] = peer
      else delete request.headers['x-forwarded-for']
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).apply(this, [event, ...args])
  } as typeof prototype.emit
}
