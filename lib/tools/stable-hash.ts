/**
 * A 32-bit FNV-1a hash of the text: the same text gives the same number on every process and
 * every run, so anything derived from it (a simulated search, a seat map, a preferred choice)
 * is stable without being stored.
 *
 * @example
 * stableHash('NYC-LAX') % 300 // the same every time
 */
export function stableHash(text: string): number {
  let value = 2166136261
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619) >>> 0
  return value
}
