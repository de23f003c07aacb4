import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { exportHref } from './chats-api'
import { MoreIcon } from './sidebar-icons'

/**
 * A chat's actions — rename, download as Markdown or JSON, delete — behind one button, as the
 * WAI-ARIA menu button pattern: Enter, Space or ↓ open it on the first item (↑ on the last), ↑/↓
 * move round it, Home/End jump, Escape closes it and gives the focus back to the button, Tab
 * closes it and moves on. A click outside closes it too.
 */
export function EntryMenu({ id, title, onRename, onDelete }: { id: string; title: string; onRename: () => void; onDelete: () => void }) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  /** Which item takes the focus when the menu opens. */
  const startAt = useRef<'first' | 'last'>('first')
  const menuId = useId()

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])

  useEffect(() => {
    if (!open) return
    const all = items()
    ;(startAt.current === 'first' ? all[0] : all[all.length - 1])?.focus()
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', outside)
    return () => document.removeEventListener('pointerdown', outside)
  }, [open])

  const openAt = (where: 'first' | 'last') => {
    startAt.current = where
    setOpen(true)
  }
  const close = (focusButton: boolean) => {
    setOpen(false)
    if (focusButton) button.current?.focus()
  }

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      openAt(event.key === 'ArrowDown' ? 'first' : 'last')
    }
  }
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items()
    const at = all.indexOf(document.activeElement as HTMLElement)
    const move = (to: number) => {
      event.preventDefault()
      all[(to + all.length) % all.length]?.focus()
    }
    if (event.key === 'ArrowDown') move(at + 1)
    else if (event.key === 'ArrowUp') move(at - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(all.length - 1)
    else if (event.key === 'Escape') {
      // Handled here: the drawer around the menu stays open.
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') setOpen(false)
  }
  /** An item was chosen: the menu closes, and the item says where the focus goes. */
  const choose = (then: () => void) => () => {
    setOpen(false)
    then()
  }

  const base = 'block w-full rounded-md px-3 py-1.5 text-left text-sm outline-none hover:bg-zinc-100 focus:bg-zinc-100 dark:hover:bg-zinc-700 dark:focus:bg-zinc-700'
  const item = `${base} text-zinc-800 dark:text-zinc-100`
  return (
    <div className="relative shrink-0">
      <button
        ref={button}
        type="button"
        aria-label={`Options for ${title}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKey}
        className="grid h-8 w-8 place-items-center rounded-md text-zinc-600 transition hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
      >
        <MoreIcon className="h-4 w-4" />
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={`Options for ${title}`}
          onKeyDown={onMenuKey}
          className="absolute right-0 top-full z-20 mt-1 w-52 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-800"
        >
          <button type="button" role="menuitem" tabIndex={-1} className={item} onClick={choose(onRename)}>
            Rename
          </button>
          <a role="menuitem" tabIndex={-1} className={item} href={exportHref(id, 'md')} download onClick={choose(() => button.current?.focus())}>
            Download as Markdown
          </a>
          <a role="menuitem" tabIndex={-1} className={item} href={exportHref(id, 'json')} download onClick={choose(() => button.current?.focus())}>
            Download as JSON
          </a>
          <button type="button" role="menuitem" tabIndex={-1} className={`${base} text-red-700 dark:text-red-300`} onClick={choose(onDelete)}>
            Delete
          </button>
        </div>
      ) : null}
    </div>
  )
}
