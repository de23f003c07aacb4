import type { SVGProps } from 'react'

/** "3h 30m", "2h", "45m". */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest}m`
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`
}

/**
 * "$299", "$1,249", "$12.5": what `toLocaleString('en-US', { maximumFractionDigits: 2 })` says,
 * written out. The first Intl number format in a page loads ICU's locale data, 60–70 ms on a
 * 2-core machine, and a question's MCP App pays it on every question: a sandboxed app frame gets
 * a fresh renderer process. Like Intl, it rounds the number's shortest decimal form half up.
 */
export function formatPrice(price: number): string {
  const decimal = String(Math.abs(price))
  // Below 1e-6 or from 1e21 on the shortest form has an exponent: Intl, for prices nobody pays.
  if (decimal.includes('e')) return `$${price.toLocaleString('en-US', { maximumFractionDigits: 2 })}`
  const [whole = '', fraction = ''] = decimal.split('.')
  const cents = BigInt(whole + fraction.slice(0, 2).padEnd(2, '0')) + (fraction.charAt(2) >= '5' ? 1n : 0n)
  const digits = cents.toString().padStart(3, '0')
  const kept = digits.slice(-2).replace(/0+$/, '')
  const sign = price < 0 || Object.is(price, -0) ? '-' : ''
  return `$${sign}${digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',')}${kept ? `.${kept}` : ''}`
}

export function AirplaneIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
      <path d="M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z" />
    </svg>
  )
}
