import { useLayoutEffect, useRef, type RefObject } from 'react'

/** What Tab would reach: a roving-tabindex grid (seats, cells) offers only its current stop. */
const TABBABLE =
  ':is(button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]):not([tabindex="-1"])'

/** The attribute ElicitationView puts on the wrapper of a component that waits for an answer. */
export const LIVE_RENDER = 'data-render-live'
/** The attribute of the place the chat's own typing happens (the composer). */
export const COMPOSER = 'data-composer'

/**
 * Focus follows the conversation inside one tool card (WCAG 2.4.3), the same for every plugin:
 *
 * - a component that appears and waits for an answer takes the focus when it is free: on the
 *   page itself, in the composer (which cannot send while a question waits), or on a finished
 *   part of this card;
 * - a component that was answered (and so disabled) hands the focus to the card, never to the
 *   page, until what comes next appears;
 * - the tool's result takes the focus from the card it was answered in.
 *
 * Focus elsewhere (another card, the header) is never taken. Runs in a layout effect, before
 * paint, so the focus is never seen on `<body>` in between.
 */
export function useFocusFollows({
  card,
  result,
  hasResult,
}: {
  card: RefObject<HTMLElement | null>
  result: RefObject<HTMLElement | null>
  hasResult: boolean
}): void {
  const seenLive = useRef<Element | undefined>(undefined)
  const resultShown = useRef(hasResult)
  /** True while the focus is, or was last, in this card: a drop to the page from here is ours to catch. */
  const focusWasHere = useRef(false)

  useLayoutEffect(() => {
    const element = card.current
    if (!element) return
    const onFocusIn = () => (focusWasHere.current = true)
    const onFocusOut = (event: FocusEvent) => {
      // No next element: the focused one was disabled or removed, and the focus fell to the page.
      if (event.relatedTarget && !element.contains(event.relatedTarget as Node)) focusWasHere.current = false
    }
    element.addEventListener('focusin', onFocusIn)
    element.addEventListener('focusout', onFocusOut)
    return () => {
      element.removeEventListener('focusin', onFocusIn)
      element.removeEventListener('focusout', onFocusOut)
    }
  }, [card])

  // After every commit of the card: cheap queries over one card's DOM.
  useLayoutEffect(() => {
    const element = card.current
    if (!element) return

    const live = element.querySelector(`[${LIVE_RENDER}]`) ?? undefined
    if (live && live !== seenLive.current) {
      const target = live.querySelector<HTMLElement>(TABBABLE)
      // A component still loading has nothing to focus yet: try again on the next commit.
      if (target) {
        seenLive.current = live
        if (focusIsFree(element)) {
          target.focus()
          return
        }
      }
    }

    if (hasResult && !resultShown.current) {
      resultShown.current = true
      if (focusWasHere.current && focusIsFree(element)) {
        result.current?.focus()
        return
      }
    }

    if (focusWasHere.current && dropped(element)) element.focus({ preventScroll: true })
  })
}

/** The focus is on the page, in the composer, or on a part of this card that no longer asks anything. */
function focusIsFree(card: HTMLElement): boolean {
  const active = document.activeElement
  if (!active || active === document.body) return true
  if (active.closest(`[${COMPOSER}]`)) return true
  return card.contains(active) && !isLiveControl(active)
}

/** The focus fell out of this card: to the page, or onto a control that was just disabled. */
function dropped(card: HTMLElement): boolean {
  const active = document.activeElement
  if (!active || active === document.body) return true
  return card.contains(active) && active !== card && (active as HTMLButtonElement).disabled === true
}

function isLiveControl(element: Element): boolean {
  return element.closest(`[${LIVE_RENDER}]`) !== null && (element as HTMLButtonElement).disabled !== true
}
