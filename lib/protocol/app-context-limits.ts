/**
 * At most this many apps' contexts go with one request, each at most `MAX_APP_CONTEXT_CHARS`.
 * Apart from the request's schema: the browser keeps to them without loading Zod.
 */
export const MAX_APP_CONTEXTS = 8
export const MAX_APP_CONTEXT_CHARS = 4_000
