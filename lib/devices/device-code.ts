import { createHmac, randomInt } from 'node:crypto'

/**
 * Crockford's base32: digits and letters without I, L, O and U, so what is read aloud or typed
 * from a phone is not mistaken (`normalizeDeviceCode` reads O as 0, and I and L as 1).
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const DEVICE_CODE_LENGTH = 8
const TYPED = /^[0-9A-Z]+$/

/**
 * A new code: 8 characters of 32 (40 bits), uniformly drawn, shown as `ABCD-EFGH`. Guessing is
 * bounded by the join limiter (docs/devices.md): with a thousand live codes and the attempts
 * the server takes, finding one is years of trying.
 */
export function newDeviceCode(): string {
  const characters = Array.from({ length: DEVICE_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)])
  return `${characters.slice(0, 4).join('')}-${characters.slice(4).join('')}`
}

/**
 * A code as typed, in the form it was made: case, spaces and dashes ignored, O read as 0, I and
 * L as 1. Undefined when it cannot be a code (wrong length or characters).
 */
export function normalizeDeviceCode(typed: string): string | undefined {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  if (plain.length !== DEVICE_CODE_LENGTH || !TYPED.test(plain) || /U/.test(plain)) return undefined
  return plain
}

/**
 * What is stored of a code: HMAC-SHA256 with the server's secret, not the code. A code has only
 * 40 bits, so a plain hash would give itself away to anyone who read the store; without the
 * secret, the stored value says nothing.
 */
export function hashDeviceCode(secret: string, normalized: string): string {
  return createHmac('sha256', secret).update(`device-code:${normalized}`).digest('base64url')
}
