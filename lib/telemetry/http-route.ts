/**
 * The route a request path belongs to, as `http.route` says it: `/api/chats/[id]`, never the id,
 * so that the request log and the metrics' labels have a bounded set of values. Every route of
 * `app/` is here (`http-route.test.ts` checks it against the directory); Next's own files are
 * `/_next/*`, and anything else (a 404, `favicon.ico`) is `other`.
 */
export const ROUTES = [
  '/',
  '/c/[id]',
  '/join',
  '/api/chat',
  '/api/chats',
  '/api/chats/[id]',
  '/api/chats/[id]/export',
  '/api/chats/[id]/restore',
  '/api/chats/[id]/waiting',
  '/api/devices',
  '/api/devices/[id]',
  '/api/devices/codes',
  '/api/devices/join',
  '/api/health',
  '/api/ready',
  '/api/mcp',
  '/api/mcp-apps/frame/[ticket]',
  '/api/mcp-apps/frames',
  '/api/mcp-apps/question-frames',
  '/api/mcp-apps/tool-call',
  '/api/mcp-oauth/callback',
  '/api/mcp-oauth/client',
  '/api/mcp-oauth/connect',
  '/api/mcp-oauth/disconnect',
  '/api/mcp-oauth/variables',
  '/api/sessions',
  '/api/tools',
  '/api/admin/usage',
  '/api/admin/operator',
  '/api/admin/session',
  '/api/admin/waiting-calls/end',
  '/admin',
  '/auth/sign-in',
  '/auth/callback',
  '/auth/sign-out',
  '/auth/signed-out',
  '/auth/not-allowed',
  '/auth/problem',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/api/mcp',
] as const

export type HttpRoute = (typeof ROUTES)[number] | '/_next/*' | 'other'

const exact = new Map<string, HttpRoute>(ROUTES.filter((route) => !route.includes('[')).map((route) => [route, route]))
/** The routes with a segment of their own (`[id]`), each as its segments; a fixed one wins over them (above). */
const dynamic = ROUTES.filter((route) => route.includes('[')).map((route) => ({ route, segments: route.split('/') }))

/** The route of `url` (a request's path and query). */
export function routeOf(url: string): HttpRoute {
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  const found = exact.get(path)
  if (found) return found
  if (path.startsWith('/_next/')) return '/_next/*'
  const segments = path.split('/')
  for (const { route, segments: pattern } of dynamic) {
    if (pattern.length !== segments.length) continue
    if (pattern.every((part, index) => part.startsWith('[') ? segments[index] !== '' : part === segments[index])) return route
  }
  return 'other'
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** `http.request.method`: a known method, else `_OTHER` (as the conventions say), so the label stays bounded. */
export function methodOf(method: string | undefined): string {
  return method && METHODS.has(method) ? method : '_OTHER'
}
