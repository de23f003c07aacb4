import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// `npm ci` on a fresh clone installs exactly what package-lock.json lists. A lock written by an
// `npm install` against a registry that lacked some platform's binaries leaves them out, and then
// `npm ci` on that platform builds without them (next falls back to wasm, libsql fails to load).
// These checks fail when that happens, before a user on macOS or Windows finds out.

interface LockedPackage {
  version?: string
  os?: string[]
  cpu?: string[]
  optionalDependencies?: Record<string, string>
}

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> }

/** The lock entry a package at `path` gets for `name`: node's resolution, from the nearest node_modules outwards. */
function resolveIn(path: string, name: string): string | undefined {
  let base = path
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`
    if (candidate in lock.packages) return candidate
    if (base === '') return undefined
    const cut = base.lastIndexOf('/node_modules/')
    base = cut === -1 ? '' : base.slice(0, cut)
  }
}

describe('package-lock.json', () => {
  it('lists every optional dependency its packages name, for every platform', () => {
    const missing: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolveIn(path, name)) missing.push(`${path || '(root)'} → ${name}`)
      }
    }
    expect(missing).toEqual([])
  })

  const platforms = [
    { os: 'linux', cpu: 'x64' },
    { os: 'darwin', cpu: 'arm64' },
    { os: 'darwin', cpu: 'x64' },
    { os: 'win32', cpu: 'x64' },
  ]
  // The native parts the app cannot run or build without.
  const families = ['next', 'libsql', 'lightningcss', 'esbuild']

  for (const { os, cpu } of platforms) {
    it(`gives ${os}-${cpu} a native binary for ${families.join(', ')}`, () => {
      const without = families.filter((family) => {
        const owner = resolveIn('', family)
        const optional = Object.keys(lock.packages[owner!]?.optionalDependencies ?? {})
        return !optional.some((name) => {
          const entry = lock.packages[resolveIn(owner!, name) ?? '']
          return entry?.os?.includes(os) && entry.cpu?.includes(cpu)
        })
      })
      expect(without).toEqual([])
    })
  }
})
