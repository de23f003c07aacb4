import type { NextConfig } from 'next'
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants'
import { API_CONTENT_SECURITY_POLICY } from './lib/server/content-security-policy'
import { devOrigins } from './lib/server/dev-origins'

// On every response, pages, API and static files alike. The pages' Content-Security-Policy
// carries a nonce per response, so proxy.ts sets it.
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // CSP's frame-ancestors 'none' says the same to browsers that read CSP; this to the rest.
  { key: 'X-Frame-Options', value: 'DENY' },
  // Links in answers open other sites: they learn our origin, never a path or a query.
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
]

/** `app/api/mcp-apps/frame/[ticket]`, without its leading slash (see APP_FRAME_PATH). */
const APP_FRAME_ROUTE = 'api/mcp-apps/frame/'

const nextConfig: NextConfig = {
  // A self-contained server in .next/standalone for plain Node hosts (see README, "Deploy").
  output: 'standalone',
  devIndicators: false,
  poweredByHeader: false,
  async headers() {
    return [
      // Not on an MCP App's frame: that route sends its own headers (a policy that sandboxes the
      // app and lets the chat, and only the chat, frame it).
      { source: `/:path((?!${APP_FRAME_ROUTE}).*)`, headers: securityHeaders },
      { source: `/api/:path((?!${APP_FRAME_ROUTE.slice('api/'.length)}).*)`, headers: [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }] },
    ]
  },
  // Native (libsql) or Node-only (redis, prom-client) packages: loaded from node_modules, never bundled.
  serverExternalPackages: ['libsql', 'redis', 'prom-client'],
  // libsql finds its native binary in a per-platform package (`@libsql/linux-x64-gnu` …) at
  // run time, which tracing cannot see: without this, a copied standalone folder cannot open
  // the session store.
  outputFileTracingIncludes: { '/**': ['./node_modules/@libsql/**/*', './node_modules/@neon-rs/**/*', './node_modules/detect-libc/**/*'] },
  // `NEXT_PROFILE_BUILD=1 npm run build`: readable server chunks with source maps, for CPU
  // profiles (`--cpu-prof --enable-source-maps`) that name our functions and Next's.
  ...(process.env.NEXT_PROFILE_BUILD === '1' && { experimental: { serverMinification: false, serverSourceMaps: true } }),
}

/**
 * `npm run dev` also answers at 127.0.0.1, this machine's network addresses and `DEV_ORIGINS`
 * (lib/server/dev-origins.ts): Next 16 refuses its dev resources to pages on any origin but
 * localhost. Only for `next dev`: a build keeps no address of the machine it was made on.
 */
export default function config(phase: string): NextConfig {
  return phase === PHASE_DEVELOPMENT_SERVER ? { ...nextConfig, allowedDevOrigins: devOrigins() } : nextConfig
}
