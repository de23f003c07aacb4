import { z } from 'zod'

/**
 * One CSP source as an MCP App may declare it: a scheme and a host (`*.` wildcard allowed),
 * an optional port, an optional path. Nothing that could end the directive or add a keyword
 * (no quotes, semicolons, commas or spaces), and no bare scheme such as `https:` (all of the web).
 */
const SOURCE = /^(https|wss|http|ws):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?$/i

const domainsSchema = z.array(z.string().max(300).regex(SOURCE, 'a CSP source like https://api.example.com')).max(32)

/** `_meta.ui.csp` of an MCP App resource (MCP Apps 2026-01-26, McpUiResourceCsp). */
export const appCspSchema = z.object({
  connectDomains: domainsSchema.optional(),
  resourceDomains: domainsSchema.optional(),
  frameDomains: domainsSchema.optional(),
  baseUriDomains: domainsSchema.optional(),
})

export type AppCsp = z.infer<typeof appCspSchema>

/**
 * The Content-Security-Policy of an MCP App's document, sent as a header by the frame route.
 *
 * - `sandbox allow-scripts allow-forms`: the document gets an opaque origin even when opened
 *   on its own (not only through the iframe's `sandbox` attribute), so it can never read the
 *   chat's cookies, storage or DOM, nor any frame on the chat's origin. No popups, no top
 *   navigation, no same-origin.
 * - Restrictive by default: inline scripts and styles (apps are single HTML files), images
 *   and fonts from `data:`/`blob:`, and no network at all. Only what `_meta.ui.csp` declares is
 *   added: `connectDomains` to `connect-src`, `resourceDomains` to scripts, styles, images,
 *   fonts and media, `frameDomains` to `frame-src`, `baseUriDomains` to `base-uri`. Never
 *   `'self'`: in this document it would mean the chat's own origin.
 * - `frame-ancestors 'self'`: only the chat may frame it.
 */
export function createAppFramePolicy(csp: AppCsp = {}): string {
  const list = (domains: string[] | undefined, fallback: string) => (domains?.length ? domains.join(' ') : fallback)
  const resources = csp.resourceDomains?.length ? ` ${csp.resourceDomains.join(' ')}` : ''
  return [
    'sandbox allow-scripts allow-forms',
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data: blob:${resources}`,
    `font-src data:${resources}`,
    `media-src data: blob:${resources}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'none'")}`,
    "worker-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ')
}
