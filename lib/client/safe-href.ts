const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])

/** `href` as an absolute http(s) or mailto URL, or undefined when it is anything else. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href)
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined
  } catch {
    return undefined
  }
}
