import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // A self-contained server in .next/standalone for plain Node hosts (see README, "Deploy").
  output: 'standalone',
  devIndicators: false,
  poweredByHeader: false,
}

export default nextConfig
