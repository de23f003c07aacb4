'use client'

import { useParams, useRouter } from 'next/navigation'
import type { ReactNode } from 'react'
import type { SignedInPerson } from './AccountPanel'
import { ChatsSidebar } from './ChatsSidebar'

/**
 * The sidebar as `app/(chats)/layout.tsx` renders it: the open chat is the `[id]` of the route
 * (`/c/<id>`; none on `/`, a new chat), and going elsewhere is the App Router's.
 */
export function ChatsShell({ person, children }: { person?: SignedInPerson; children: ReactNode }) {
  const params = useParams<{ id?: string }>()
  const router = useRouter()
  const currentId = typeof params?.id === 'string' ? params.id : undefined
  return (
    <ChatsSidebar currentId={currentId} navigate={(href) => router.push(href)} person={person}>
      {children}
    </ChatsSidebar>
  )
}
