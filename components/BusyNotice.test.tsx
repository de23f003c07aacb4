import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BusyNotice } from './BusyNotice'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: 10_000 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('BusyNotice', () => {
  it('says calmly, in a polite live region, in how many seconds the chat tries again', () => {
    const html = renderToStaticMarkup(<BusyNotice busy={{ retryAt: 12_000 }} />)
    expect(html).toMatch(/^<div role="status" aria-live="polite" data-testid="busy-retry"/)
    expect(html).toContain('>Busy — trying again in 2 s<')
    // Muted, not an alert.
    expect(html).not.toContain('role="alert"')
    expect(html).not.toMatch(/\bred-/)
  })

  it('rounds the seconds left up, and never shows 0', () => {
    expect(renderToStaticMarkup(<BusyNotice busy={{ retryAt: 10_001 }} />)).toContain('Busy — trying again in 1 s')
    expect(renderToStaticMarkup(<BusyNotice busy={{ retryAt: 9_000 }} />)).toContain('Busy — trying again in 1 s')
    expect(renderToStaticMarkup(<BusyNotice busy={{ retryAt: 12_500 }} />)).toContain('Busy — trying again in 3 s')
  })

  it('keeps the live region, empty, when nothing waits', () => {
    expect(renderToStaticMarkup(<BusyNotice busy={undefined} />)).toBe(
      '<div role="status" aria-live="polite" data-testid="busy-retry" class="mx-auto w-full max-w-3xl px-3 sm:px-4"></div>',
    )
  })
})
