import { isIP } from 'node:net'

/**
 * The address a request's rate is counted against: the last entry of `X-Forwarded-For`,
 * grouped (an IPv6 address by its /64, the block one subscriber usually holds; an IPv4-mapped
 * IPv6 address as its IPv4).
 *
 * Where that header comes from: a Next route handler cannot see the TCP socket. Next's server
 * sets `X-Forwarded-For` to the socket's peer address, but only when the request did not carry
 * one, so on its own it would believe whatever a client sends. `installPeerAddress` (peer-address.ts,
 * run at start) therefore overwrites the header with the socket's peer address on every request,
 * unless `TRUST_PROXY=1`: then the proxy in front appends the address it saw, which is the
 * last entry. Without either (tests calling the handler directly) the header is absent and
 * every request counts against `unknown`.
 */
export function clientAddressOf(request: Request): string {
  const header = request.headers.get('x-forwarded-for')
  const last = header?.split(',').at(-1)?.trim()
  return last ? addressKey(last) : 'unknown'
}

/** The key of `address` in the rate limiter: an IPv4 address, an IPv6 /64, or the text as given. */
export function addressKey(address: string): string {
  const bare = address.replace(/^\[|\](?::\d+)?$/g, '').replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  if (mapped) return mapped[1]!
  if (isIP(bare) === 4) return bare
  if (isIP(bare) !== 6) return bare.slice(0, 100)
  const [head = '', tail = ''] = bare.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = bare.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
