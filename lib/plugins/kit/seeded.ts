import { stableHash } from '../../tools/stable-hash'

export { stableHash }

/**
 * A whole number in `[0, bound)` that depends only on the seed: the same search, seat map or
 * suggestion on every process and every run, with nothing stored.
 *
 * @example
 * seededNumber({ seed: 'NYC-LAX/duration', bound: 300 }) // the same every time
 */
export function seededNumber({ seed, bound }: { seed: string; bound: number }): number {
  if (!Number.isInteger(bound) || bound < 1) throw new RangeError(`No seeded number below ${bound}.`)
  return stableHash(seed) % bound
}

/** Letters and digits that cannot be misread for one another (no I, O, 0 or 1). */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/**
 * A random code for people to read out: a prefix and `length` characters of `CODE_ALPHABET`,
 * from the platform's CSPRNG. Random, so make it inside a journaled step (`ctx.step`) so a
 * replayed session keeps the same code.
 *
 * @example
 * const ticket = yield* ctx.step('issue ticket', function* () {
 *   return createCode({ prefix: 'TKT-', length: 6 }) // e.g. 'TKT-7KQ2MZ'
 * })
 */
export function createCode({ prefix = '', length = 6 }: { prefix?: string; length?: number } = {}): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  // 256 is a multiple of 32, so every character is equally likely.
  return `${prefix}${Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('')}`
}
