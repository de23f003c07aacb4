/**
 * The Content-Security-Policy of the app's pages. Scripts run only with this response's nonce
 * (Next attaches it to its own scripts and inline payloads, which it reads from the request's
 * CSP header) or when a script that has it loads them ('strict-dynamic'): an injected
 * `<script>` or `on*=` attribute never runs, even if something slipped past the markdown
 * renderer. Styles only from our own files or with the nonce; no inline `style="…"` in
 * server-rendered HTML (React sets style properties through the CSSOM, which CSP allows).
 *
 * `frame-ancestors 'none'`: nobody may frame the chat. `frame-src 'self'`: the chat frames MCP
 * Apps from a route of our own (`/api/mcp-apps/frame/…`), whose own policy sandboxes each app
 * into an opaque origin (see lib/mcp/apps/app-frame-policy.ts); every other page of ours
 * refuses to be framed.
 */
export function createContentSecurityPolicy({ nonce, https, development = false }: { nonce: string; https: boolean; development?: boolean }): string {
  return [
    "default-src 'self'",
    // React rebuilds server error stacks with eval in development only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // The dev overlay injects inline styles; production has none but Next's nonced ones.
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Only over HTTPS: on http://localhost it would send every asset request to https.
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
}

/** For responses that are data, not documents (the API): nothing may load, run or frame. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
