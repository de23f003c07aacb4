import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * The admin check of `ADMIN_TOKEN`: a request is an admin's when it sends
 * `Authorization: Bearer <token>`, compared in constant time (both sides hashed first, so the
 * comparison's time says nothing of the length either). Without a token, nobody is.
 */
export function adminTokenCheck(token: string | undefined): (request: Request) => boolean {
  if (!token) return () => false
  const expected = createHash('sha256').update(token).digest()
  return (request) => {
    const match = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')
    if (!match) return false
    return timingSafeEqual(createHash('sha256').update(match[1]!).digest(), expected)
  }
}
