import { z } from 'zod'

/** `POST /api/devices/join`: the code as typed (case, spaces and dashes do not matter). */
export const joinBodySchema = z.strictObject({
  code: z.string().min(1, 'Enter the code shown on your other browser.').max(32, 'A code is 8 characters.'),
})

/** `POST /api/devices/codes`: nothing to say (an empty object, or no body). */
export const createCodeBodySchema = z.strictObject({})

/** A browser id in a path: a joined browser's (22 characters) or the first browser's. */
export const BROWSER_ID_PATH = /^(?:[A-Za-z0-9_-]{22}|first)$/
