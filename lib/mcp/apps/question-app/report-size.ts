/**
 * Tells the host the app's size whenever it changes (MCP Apps' `ui/notifications/size-changed`),
 * so the host sizes its frame to the question rather than scrolling it. A ResizeObserver on the
 * document and its body wakes it; changes within one frame are sent once. The height is the
 * content's own (`max-content`), not the frame's, which the host may have made taller.
 */
export function reportSize(send: (size: { width: number; height: number }) => void): () => void {
  let scheduled = false
  let last = { width: 0, height: 0 }
  const measure = () => {
    if (scheduled) return
    scheduled = true
    requestAnimationFrame(() => {
      scheduled = false
      const root = document.documentElement
      const height = root.style.height
      root.style.height = 'max-content'
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) }
      root.style.height = height
      if (size.width === last.width && size.height === last.height) return
      last = size
      send(size)
    })
  }
  measure()
  const observer = new ResizeObserver(measure)
  observer.observe(document.documentElement)
  observer.observe(document.body)
  return () => observer.disconnect()
}
