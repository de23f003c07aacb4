import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { connection } from 'next/server'
import './globals.css'

export const metadata: Metadata = {
  title: 'Elicit Chat',
  description: 'A chat whose tools can stop to ask you something — pick a flight, choose a seat — and then carry on.',
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#fafafa' },
    { media: '(prefers-color-scheme: dark)', color: '#09090b' },
  ],
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page (the 404 too) is rendered per request: Next can put the CSP nonce of this
  // response (proxy.ts) on its scripts only when it renders them for that response.
  await connection()
  return (
    <html lang="en">
      <body className="font-sans antialiased">{children}</body>
    </html>
  )
}
