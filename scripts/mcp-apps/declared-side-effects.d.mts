import type { Plugin } from 'esbuild'

/** Marks effection's modules free of side effects in an app bundle, as its package declares. */
export declare const declaredSideEffects: Plugin
