// Types of scripts/test-counts.mjs, for its test (the project's TypeScript does not read .mjs).
export type Exit = { status: number | null; signal?: string | null; error?: Error }
export type Counts = { passed: number; failed: number; problems: string[] }
export function countVitestRun(name: string, exit: Exit, report: unknown): Counts
export function countPlaywrightRun(name: string, exit: Exit, report: unknown): Counts
export function addCounts(...runs: Counts[]): Counts
