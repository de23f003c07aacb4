import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'
import type { Environment } from './config-error'

/**
 * The host names `npm run dev` (`next dev`) may be opened at, for next.config.ts's
 * `allowedDevOrigins`. Next 16 serves its dev resources (the page's scripts, hot reload) to pages
 * on localhost only and answers any other origin 403, so a page opened at another address never
 * hydrates. Allowed here: `127.0.0.1` and `[::1]`, every address of this machine's network
 * interfaces (the "Network:" address `next dev` prints is one, the one a phone on the LAN
 * opens), and the host names in `DEV_ORIGINS`, comma-separated (`mybox.local`,
 * `*.dev.example.com`: Next's own patterns). IPv6 addresses are written as a browser's origin
 * names them, in brackets; a link-local one (with a zone) is left out, since no URL can name it.
 */
export function devOrigins(env: Environment = process.env, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4' || entry.scopeid === 0)
    .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address))
  const given = (env.DEV_ORIGINS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  return [...new Set(['127.0.0.1', '[::1]', ...addresses, ...given])]
}
