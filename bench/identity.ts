/**
 * What the identity cookie costs per request (docs/devices.md): `resolve` of a first browser's
 * two-part cookie (everyone who never joins), and of a joined browser's three-part cookie checked
 * against each device store's `revoked`. In-process; `npx tsx bench/identity.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClientIdentity } from '../lib/http'
import { createMemoryDeviceStore, useEmbeddedDeviceStore, type DeviceStore } from '../lib/devices'
import { openInScope } from '../lib/testing/in-scope'

const SECRET = 'a-secret-for-the-identity-bench-0123456789'
const ROUNDS = 200_000

function measure(name: string, resolve: () => unknown): void {
  for (let i = 0; i < 10_000; i++) resolve()
  const started = process.hrtime.bigint()
  for (let i = 0; i < ROUNDS; i++) resolve()
  const perCall = Number(process.hrtime.bigint() - started) / ROUNDS / 1000
  console.log(`${name.padEnd(48)} ${perCall.toFixed(2)} µs per request`)
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'identity-bench-'))
  const embedded = await openInScope(() => useEmbeddedDeviceStore({ directory }))
  const stores: Array<[string, DeviceStore]> = [
    ['memory', createMemoryDeviceStore()],
    ['embedded', embedded.value],
  ]
  try {
    const before = createClientIdentity({ secret: SECRET })
    const first = before.resolve(new Request('http://localhost/')).headers['Set-Cookie']!.split(';')[0]!
    const request = (cookie: string) => new Request('http://localhost/api/chat', { method: 'POST', headers: { cookie } })
    const firstRequest = request(first)
    measure('first browser, no revoked check given', () => before.resolve(firstRequest))
    for (const [name, store] of stores) {
      const identity = createClientIdentity({ secret: SECRET, revoked: store.revoked })
      const clientId = identity.resolve(firstRequest).clientId
      const browserId = identity.newBrowserId()
      await embedded.run(() => store.addBrowser(clientId, { id: browserId, name: 'bench', joinedAt: Date.now() }, { maxBrowsers: 10 }))
      const joinedRequest = request(identity.joinCookie(firstRequest, { clientId, browserId })['Set-Cookie']!.split(';')[0]!)
      measure(`first browser, ${name} store`, () => identity.resolve(firstRequest))
      measure(`joined browser, ${name} store`, () => identity.resolve(joinedRequest))
    }
  } finally {
    await embedded.destroy()
    rmSync(directory, { recursive: true, force: true })
  }
}

await main()
