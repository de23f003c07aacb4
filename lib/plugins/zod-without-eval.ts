import { z } from 'zod'

// Zod 4 compiles object parsers with `new Function` when it may, and finds out by trying
// `Function("")` once. Under the page's CSP (no 'unsafe-eval') that try is refused — caught by
// Zod, but reported as a CSP violation every time. In the browser it parses without compiling;
// the server (no CSP there) keeps its compiled parsers.
if (typeof window !== 'undefined') z.config({ jitless: true })
