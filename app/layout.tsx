import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { storedChatScript } from './stored-chat-script'
import { connection } from 'next/server'
import { headers } from 'next/headers'
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
  // The inline script below needs this response's nonce too (proxy.ts puts it in the policy).
  const nonce = /'nonce-([^']+)'/.exec((await headers()).get('content-security-policy') ?? '')?.[1]
  return (
    // The attribute the script below may set is not React's to reconcile.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: storedChatScript }} />
      </head>
      <body className="font-sans antialiased">{children}</body>
    </html>
  )
}
