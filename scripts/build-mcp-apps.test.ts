import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUILD_FIXTURE_APPS_TIMEOUT_MS, buildFixtureApps, type BuiltApps } from '@/lib/mcp/apps/testing/build-fixture-apps'

// The MCP Apps build on a fixture plugin of its own (lib/mcp/apps/testing/question-fixture).
let built: BuiltApps
beforeAll(() => {
  built = buildFixtureApps()
}, BUILD_FIXTURE_APPS_TIMEOUT_MS)
afterAll(() => built?.remove())

/** The document with its one inline script and style taken out: what is left is markup. */
function markupOf(html: string): string {
  return html.replace(/<script>[\s\S]*?<\/script>/g, '').replace(/<style>[\s\S]*?<\/style>/g, '')
}

describe('scripts/build-mcp-apps.mjs', () => {
  it('builds one app per question a component answers, found from the plugin list, and prints each gzip size', () => {
    expect(built.manifest.apps.map(({ tool, key, uri, file }) => ({ tool, key, uri, file }))).toEqual([
      { tool: 'paint_poster', key: 'pickColour', uri: 'ui://paint_poster/pickColour', file: 'paint_poster/pickColour.html' },
      { tool: 'paint_poster', key: 'pickSize', uri: 'ui://paint_poster/pickSize', file: 'paint_poster/pickSize.html' },
    ])
    for (const app of built.manifest.apps) {
      expect(app.gzipBytes).toBeLessThanOrEqual(60 * 1024)
      expect(built.output).toContain(`${app.uri}`)
      expect(built.output).toMatch(new RegExp(`${app.uri}\\s+${(app.gzipBytes / 1024).toFixed(1)} KB gzip`))
    }
  })

  it('writes self-contained documents: the handshake script, the style, the app script, nothing loaded from anywhere, no eval', () => {
    for (const app of built.manifest.apps) {
      const html = built.html(app.file)
      expect(html.startsWith('<!doctype html>')).toBe(true)
      expect(html.match(/<script\b/g)).toHaveLength(2)
      expect(html.match(/<style\b/g)).toHaveLength(1)
      // The handshake first, before the styles and the app's markup, so the host answers while the rest is parsed.
      const [handshake, script] = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!)
      expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('<style>'))
      expect(handshake).toContain('ui/initialize')
      expect(handshake!.length).toBeLessThan(4096)
      expect(script).not.toContain('ui/initialize')
      const markup = markupOf(html)
      expect(markup).not.toMatch(/\b(src|href|srcset|action)\s*=/i)
      expect(markup).not.toMatch(/<(link|iframe|img|object|embed|base)\b/i)
      const styles = html.match(/<style>([\s\S]*?)<\/style>/)![1]!
      expect(styles).not.toMatch(/@import|url\(\s*['"]?(https?:)?\/\//i)
      for (const text of [handshake, script]) {
        expect(text).not.toMatch(/\bfetch\s*\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|importScripts|\beval\s*\(|new Function\b/)
        // Neither the MCP SDK nor Zod is in either.
        expect(text).not.toMatch(/ZodError|McpError|jsonrpc:"2\.0",method:"initialize"/)
      }
      // The component is in the app's script.
      expect(script).toContain(app.key === 'pickColour' ? 'Decline' : 'A size not offered')
    }
  })

  it('compiles only the classes the bundled files use, dark variants keyed on the host theme', () => {
    const html = built.html('paint_poster/pickColour.html')
    const styles = html.match(/<style>([\s\S]*?)<\/style>/)![1]!
    expect(styles).toContain('.rounded-xl')
    expect(styles).toMatch(/\[data-theme=dark\][^{]*\.dark\\:bg-zinc-900|\.dark\\:bg-zinc-900:where\(\[data-theme=dark\]/)
    // A class only the chat uses is not compiled into the app.
    expect(styles).not.toContain('.max-w-3xl')
    expect(styles).not.toContain('prefers-color-scheme')
    // The page takes the host's MCP Apps variables, with fallbacks.
    expect(styles).toContain('background:var(--color-background-primary, transparent)')
    expect(styles).toMatch(/font-family:var\(--font-sans,/)
  })
})
