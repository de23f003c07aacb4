'use client'

import { useRouter } from 'next/navigation'
import { QuietButton } from '@/components/kit'

/** Reads the operator's view again (the page is rendered on the server at each request). */
export function RefreshButton() {
  const router = useRouter()
  return <QuietButton onClick={() => router.refresh()}>Refresh</QuietButton>
}
