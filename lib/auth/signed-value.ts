import { createHmac, timingSafeEqual } from 'node:crypto'

/** HMAC-SHA256 is 32 bytes: 43 characters of unpadded base64url. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/

/**
 * Signs and checks the values the sign-in puts in cookies (`<value>.<signature>`), each for one
 * `purpose` ("session", "sign-in", "refused"): a value signed for one purpose is never accepted
 * for another, nor as the browser identity cookie (whose signed text has no purpose line).
 */
export function createSigner(secret: string) {
  const signature = (purpose: string, value: string) => createHmac('sha256', secret).update(`elicit-auth:${purpose}\n${value}`).digest()
  return {
    sign: (purpose: string, value: string) => `${value}.${signature(purpose, value).toString('base64url')}`,
    /** The value `signed` carries when it was signed for `purpose` with this secret, else undefined. */
    verify(purpose: string, signed: string): string | undefined {
      const dot = signed.lastIndexOf('.')
      if (dot <= 0) return undefined
      const value = signed.slice(0, dot)
      const given = signed.slice(dot + 1)
      if (!SIGNATURE.test(given)) return undefined
      const expected = signature(purpose, value)
      const bytes = Buffer.from(given, 'base64url')
      return bytes.length === expected.length && timingSafeEqual(bytes, expected) ? value : undefined
    },
  }
}

export type Signer = ReturnType<typeof createSigner>
