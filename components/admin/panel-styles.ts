/** The operator's view's sections and tables, one look for all of them (Tailwind classes). */
export const SECTION = 'mt-8'
export const HEADING = 'text-base font-semibold text-zinc-900 dark:text-zinc-50'
export const NOTE = 'mt-1 text-sm text-zinc-600 dark:text-zinc-400'
export const EMPTY = 'mt-3 text-sm text-zinc-600 dark:text-zinc-400'
export const TABLE = 'mt-3 w-full text-left text-sm text-zinc-800 dark:text-zinc-200'
export const HEAD_CELL = 'border-b border-zinc-300 py-1.5 pr-3 font-medium text-zinc-600 dark:border-zinc-700 dark:text-zinc-400'
export const CELL = 'border-b border-zinc-200 py-1.5 pr-3 align-top dark:border-zinc-800'
