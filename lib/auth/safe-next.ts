/**
 * Where to send a person after signing in: `next` when it is a path of this app, else `/`. Only
 * a path that starts with one `/` is kept — never `//host` or `/\host` (which browsers read as
 * another host), a scheme, or a control character — so the sign-in is never an open redirect.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048) return '/'
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return '/'
  // Resolved against a dummy origin, the path must stay on it.
  const url = new URL(next, 'http://app.invalid')
  if (url.origin !== 'http://app.invalid') return '/'
  if (url.pathname.startsWith('/auth/')) return '/'
  return `${url.pathname}${url.search}${url.hash}`
}
