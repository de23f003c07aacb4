'use client'

import Link from 'next/link'
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { PlusIcon } from '../icons'
import { ChatsApiError } from './chats-api'
import { ChatEntry, UNTITLED } from './ChatEntry'
import { ImportChat } from './ImportChat'
import { AccountPanel, type Guest, type SignedInPerson } from './AccountPanel'
import { OtherDeviceButton } from './OtherDeviceButton'
import { CloseIcon, SidebarIcon } from './sidebar-icons'
import { UndoToast, type PendingUndo } from './UndoToast'
import { useChatList } from './use-chat-list'
import { usePhoneWidth } from './use-phone-width'

const SIDEBAR_ID = 'chats-sidebar'

/**
 * The chats beside the chat: a 260 px column on a wide screen; at phone width (≤ 640 px) a
 * drawer behind a "Chats" button in the top corner, which takes the focus when it opens, closes on
 * Escape, its close button, a tap beside it or a chat chosen, gives the focus back to the button,
 * and leaves the rest inert while it is open.
 *
 * `currentId` is the chat the page shows (its entry is `aria-current="page"`); `navigate` goes
 * to another page (a deleted open chat leaves for `/`, an imported one is opened).
 */
export function ChatsSidebar({
  currentId,
  navigate,
  person,
  children,
}: {
  currentId?: string
  navigate: (href: string) => void
  /** Who is signed in (or a guest), with sign-in configured; then the sidebar shows them in place of "Continue on another device". */
  person?: SignedInPerson | Guest
  children: ReactNode
}) {
  const list = useChatList()
  const phone = usePhoneWidth()
  const [open, setOpen] = useState(false)
  const drawerOpen = open && phone
  const opener = useRef<HTMLButtonElement>(null)
  const drawer = useRef<HTMLElement>(null)
  /** Set when the drawer is closed by the person: the opener takes the focus back. */
  const returnFocus = useRef(false)
  const [pending, setPending] = useState<PendingUndo | undefined>()
  const [notice, setNotice] = useState<string | undefined>()

  useEffect(() => {
    if (drawerOpen) {
      const target = drawer.current?.querySelector<HTMLElement>('[aria-current="page"]') ?? drawer.current?.querySelector<HTMLElement>('a[href]')
      target?.focus()
    } else if (returnFocus.current) {
      returnFocus.current = false
      opener.current?.focus()
    }
  }, [drawerOpen])
  // Wide again with the drawer open: nothing is left inert, and it is closed when narrow again.
  useEffect(() => {
    if (!phone) setOpen(false)
  }, [phone])

  const close = () => {
    returnFocus.current = true
    setOpen(false)
  }
  const onDrawerKey = (event: KeyboardEvent) => {
    // A menu or a rename field inside handles its own Escape first.
    if (event.key === 'Escape' && drawerOpen && !event.defaultPrevented) {
      event.preventDefault()
      close()
    }
  }

  const remove = async (id: string, title: string) => {
    setNotice(undefined)
    try {
      const deletion = await list.remove(id)
      setPending({ id, title, undoMs: deletion.undoMs })
      if (id === currentId) navigate('/')
    } catch (failure) {
      setNotice(failure instanceof ChatsApiError ? `Not deleted: ${failure.message}` : 'The chat could not be deleted.')
    }
  }
  /** A chat whose entry takes the focus as soon as it is listed again (an undone delete). */
  const focusEntry = useRef<string | undefined>(undefined)
  useEffect(() => {
    const id = focusEntry.current
    const link = id === undefined ? null : drawer.current?.querySelector<HTMLElement>(`a[href="/c/${id}"]`)
    if (link) {
      focusEntry.current = undefined
      link.focus()
    }
  })
  const undo = async () => {
    if (!pending) return
    const { id } = pending
    try {
      await list.restore(id)
      focusEntry.current = id
      setNotice('Chat restored')
    } catch (failure) {
      setNotice(failure instanceof ChatsApiError && failure.status === 404 ? 'Too late to undo: the chat is gone.' : 'The chat could not be restored.')
      drawer.current?.querySelector<HTMLElement>('a[href]')?.focus()
    } finally {
      // Until the answer came, Undo kept the focus; then the entry (or New chat) has it.
      setPending(undefined)
    }
  }
  const expire = useCallback((hadFocus: boolean) => {
    setPending(undefined)
    if (hadFocus) drawer.current?.querySelector<HTMLElement>('a[href]')?.focus()
  }, [])

  return (
    <div className="flex h-dvh">
      <button
        ref={opener}
        type="button"
        aria-label="Chats"
        aria-expanded={drawerOpen}
        aria-controls={SIDEBAR_ID}
        inert={drawerOpen}
        onClick={() => setOpen(true)}
        className="fixed left-3 top-[9px] z-30 grid h-9 w-9 place-items-center rounded-lg border border-zinc-200 bg-white text-zinc-700 transition hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800 min-[641px]:hidden"
      >
        <SidebarIcon className="h-5 w-5" />
      </button>
      {drawerOpen ? <div aria-hidden="true" onClick={close} className="fixed inset-0 z-40 bg-zinc-950/50" /> : null}
      <aside
        ref={drawer}
        id={SIDEBAR_ID}
        onKeyDown={onDrawerKey}
        onClick={(event) => {
          // A chat (or New chat) chosen in the drawer: the drawer has done its job.
          if ((event.target as Element).closest('a[href]:not([download])')) setOpen(false)
        }}
        className={`${
          drawerOpen ? 'fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] shadow-2xl' : 'hidden'
        } flex-col border-r border-zinc-200/80 bg-zinc-100 dark:border-zinc-800 dark:bg-zinc-900 min-[641px]:static min-[641px]:z-auto min-[641px]:flex min-[641px]:w-[260px] min-[641px]:shrink-0 min-[641px]:shadow-none`}
      >
        <div className="flex items-center gap-1 p-2">
          <Link
            href="/"
            className="flex flex-1 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm font-medium text-zinc-800 transition hover:bg-zinc-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            <PlusIcon className="h-4 w-4" />
            New chat
          </Link>
          {drawerOpen ? (
            <button
              type="button"
              aria-label="Close chats"
              onClick={close}
              className="grid h-9 w-9 place-items-center rounded-lg text-zinc-700 hover:bg-zinc-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-200 dark:hover:bg-zinc-800"
            >
              <CloseIcon className="h-5 w-5" />
            </button>
          ) : null}
        </div>
        <nav aria-label="Chats" className="min-h-0 flex-1 overflow-y-auto px-2 pb-16">
          {list.status === 'failed' && list.chats.length === 0 ? (
            <div role="alert" className="px-3 py-2 text-sm text-zinc-700 dark:text-zinc-300">
              <p>{list.error}</p>
              <button type="button" onClick={list.refresh} className="mt-1 font-medium text-sky-700 underline dark:text-sky-300">
                Try again
              </button>
            </div>
          ) : list.status === 'ready' && list.chats.length === 0 ? (
            <p className="px-3 py-2 text-sm text-zinc-600 dark:text-zinc-400">No chats yet.</p>
          ) : (
            <ul className="flex flex-col gap-0.5" aria-busy={list.status === 'loading'}>
              {list.chats.map((chat) => (
                <ChatEntry
                  key={chat.id}
                  chat={chat}
                  current={chat.id === currentId}
                  onRename={(title) => list.rename(chat.id, title)}
                  onDelete={() => void remove(chat.id, chat.title || UNTITLED)}
                />
              ))}
            </ul>
          )}
          {list.hasMore ? (
            <button
              type="button"
              onClick={list.loadMore}
              disabled={list.loadingMore}
              className="mt-1 w-full rounded-lg px-3 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-200/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:opacity-60 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
            >
              {list.loadingMore ? 'Loading…' : 'More chats'}
            </button>
          ) : null}
        </nav>
        <div className="flex flex-col gap-2 border-t border-zinc-200/80 p-2 dark:border-zinc-800">
          <UndoToast pending={pending} message={notice} onUndo={() => void undo()} onExpire={expire} />
          <ImportChat
            onImported={(id) => {
              list.refresh()
              navigate(`/c/${id}`)
            }}
          />
          {person ? <AccountPanel person={person} next={currentId ? `/c/${currentId}` : '/'} /> : <OtherDeviceButton />}
        </div>
      </aside>
      {/* At phone width the chat's own header leaves room for the Chats button. */}
      <div inert={drawerOpen} className="min-w-0 flex-1 max-[640px]:[&_[data-chat]>header]:pl-12">
        {children}
      </div>
    </div>
  )
}
