/**
 * The host's look, applied to the app's document: its theme (light or dark) as `data-theme`
 * and `color-scheme` on `<html>` — the bundle's Tailwind `dark:` variants key on it — and its
 * `styles.variables` (MCP Apps' `--color-*`, `--font-*`, `--border-radius-*` …) as CSS custom
 * properties, which the app's base styles read with fallbacks of their own. A host context
 * change carries only what changed, so each part is applied only when present.
 */

export type Theme = 'light' | 'dark'

/** The parts of MCP Apps' `McpUiHostContext` the app reads. */
export interface HostLook {
  theme?: unknown
  styles?: { variables?: Record<string, unknown> }
}

export function applyHostLook(look: HostLook, root: HTMLElement = document.documentElement): void {
  if (look.theme === 'light' || look.theme === 'dark') applyTheme(look.theme, root)
  for (const [name, value] of Object.entries(look.styles?.variables ?? {})) {
    // Only custom properties: a host cannot set `display` or `position` on the app's root this way.
    if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value)
  }
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.setAttribute('data-theme', theme)
  root.style.colorScheme = theme
}

/** Until the host says, the system's preference. */
export function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}
