import { Window } from 'happy-dom'

/*
 * A DOM for a test that also runs the chat engine in the same process. Vitest's happy-dom
 * environment replaces Node's fetch classes with the DOM's, whose Request drops the Cookie
 * header a browser never lets a page set, so the engine would see every request as a new
 * browser. Imported first (before React), this gives the test a window and a document and
 * leaves Node's Request, Response and Headers alone.
 */
const window = new Window({ url: 'http://localhost/' })
const globals = { window, document: window.document, navigator: window.navigator, IS_REACT_ACT_ENVIRONMENT: true }
Object.assign(globalThis, globals)
for (const name of ['HTMLElement', 'HTMLInputElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'Element', 'Node', 'Event', 'MouseEvent', 'KeyboardEvent', 'InputEvent', 'FocusEvent', 'MutationObserver', 'getComputedStyle'] as const) {
  Object.assign(globalThis, { [name]: (window as unknown as Record<string, unknown>)[name] })
}

/** Closes the window's timers and pages; call after the tests. */
export function closeDomWindow(): Promise<void> {
  return window.happyDOM.close()
}
