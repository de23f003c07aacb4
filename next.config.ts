import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // A self-contained server in .next/standalone for plain Node hosts (see README, "Deploy").
  output: 'standalone',
  devIndicators: false,
  poweredByHeader: false,
  // Native (lmdb) or Node-only (redis) packages: loaded from node_modules, never bundled.
  serverExternalPackages: ['lmdb', 'redis'],
  // lmdb finds its native binary (and msgpackr its optional one) in a per-platform package at
  // run time, which tracing cannot see: without this, a copied standalone folder fails with
  // "No native build was found".
  outputFileTracingIncludes: { '/**': ['./node_modules/@lmdb/**/*', './node_modules/@msgpackr-extract/**/*'] },
}

export default nextConfig
