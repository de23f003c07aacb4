import { useSyncExternalStore } from 'react'

/** Phone width: the sidebar is a drawer (the same width as the `max-[640px]:` classes). */
const PHONE = '(max-width: 640px)'

function subscribe(changed: () => void): () => void {
  const query = window.matchMedia(PHONE)
  query.addEventListener('change', changed)
  return () => query.removeEventListener('change', changed)
}

/** Whether the window is phone-wide now; `false` on the server (the drawer starts closed either way). */
export function usePhoneWidth(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE).matches,
    () => false,
  )
}
