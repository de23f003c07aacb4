/**
 * A browser's name for the list of devices, from its User-Agent: "Firefox on Android",
 * "Chrome on macOS", "Safari on iPhone" — enough to tell one's own browsers apart, never the
 * whole string (it is stored and shown, and says more than that). Order matters: Edge and Opera
 * say "Chrome" too, Chrome says "Safari".
 */
export function browserName(userAgent: string | null): string {
  const ua = userAgent ?? ''
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS/.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS|Chromium/.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : undefined
  const system = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Windows/.test(ua)
            ? 'Windows'
            : /CrOS/.test(ua)
              ? 'ChromeOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : undefined
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? 'A browser'
}
