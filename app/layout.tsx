import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { storedChatScript } from './stored-chat-script'
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

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The attribute the script below may set is not React's to reconcile.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: storedChatScript }} />
      </head>
      <body className="font-sans antialiased">{children}</body>
    </html>
  )
}
