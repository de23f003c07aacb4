import { describe, expect, it } from 'vitest'
import { safeNextPath } from './safe-next'

describe('safeNextPath', () => {
  it('keeps a path of this app, with its query and fragment', () => {
    expect(safeNextPath('/c/abc?x=1#y')).toBe('/c/abc?x=1#y')
    expect(safeNextPath('/')).toBe('/')
  })

  it.each([null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '\\\\evil', 'javascript:alert(1)', '/a\nb', '/a\tb', 'c/abc', '/auth/sign-in?next=//evil'])(
    'sends %j to / (never off the app, never back into the sign-in)',
    (next) => {
      expect(safeNextPath(next)).toBe('/')
    },
  )

  it('keeps an encoded line break encoded: it stays inside the path', () => {
    expect(safeNextPath('/%0d%0aSet-Cookie:x')).toBe('/%0d%0aSet-Cookie:x')
  })
})
