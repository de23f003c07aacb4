import type { NetworkInterfaceInfo } from 'node:os'
import { describe, expect, it } from 'vitest'
import { devOrigins } from './dev-origins'

const ipv4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal, cidr: `${address}/24` })
const ipv6 = (address: string, scopeid: number, internal = false): NetworkInterfaceInfo => ({ address, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal, cidr: `${address}/64`, scopeid })

/** A laptop on a home network: loopback, Wi-Fi with a LAN address, a global and a link-local IPv6 one, and a Docker bridge. */
const LAPTOP = {
  lo: [ipv4('127.0.0.1', true), ipv6('::1', 0, true)],
  wlan0: [ipv4('192.168.1.23'), ipv6('2001:db8::23', 0), ipv6('fe80::1c2b:3aff:fe4d:5e6f', 3)],
  docker0: [ipv4('172.17.0.1')],
}

describe('devOrigins (next.config.ts allowedDevOrigins for npm run dev)', () => {
  it("names 127.0.0.1 and every address of the machine's interfaces, as a browser's Origin names them", () => {
    expect(devOrigins({}, LAPTOP)).toEqual(['127.0.0.1', '[::1]', '192.168.1.23', '[2001:db8::23]', '172.17.0.1'])
  })

  it('adds the host names of DEV_ORIGINS, comma-separated, blanks ignored', () => {
    expect(devOrigins({ DEV_ORIGINS: ' mybox.local, *.dev.example.com ,,' }, { lo: LAPTOP.lo })).toEqual(['127.0.0.1', '[::1]', 'mybox.local', '*.dev.example.com'])
  })

  it('leaves out a link-local IPv6 address, which no URL can name', () => {
    expect(devOrigins({}, { wlan0: [ipv6('fe80::1c2b:3aff:fe4d:5e6f', 3)] })).toEqual(['127.0.0.1', '[::1]'])
  })
})
