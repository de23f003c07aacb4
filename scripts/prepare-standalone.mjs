// `next build` with output: 'standalone' leaves static assets out of .next/standalone;
// copy them in so that `npm start` (and a deployed copy of the folder) serves everything.
import { cpSync, existsSync, readdirSync } from 'node:fs'

const standalone = '.next/standalone'
if (!existsSync(standalone)) {
  console.error('No .next/standalone: is output: "standalone" still set in next.config.ts?')
  process.exit(1)
}
cpSync('.next/static', `${standalone}/.next/static`, { recursive: true })
if (existsSync('public')) cpSync('public', `${standalone}/public`, { recursive: true })
// lmdb finds its native binary at run time in an optional package for this platform
// (@lmdb/lmdb-linux-x64, ...), which the build's file tracing cannot see: copy it in, so that
// a copy of the folder on another host has it too.
if (existsSync('node_modules/@lmdb')) {
  for (const name of readdirSync('node_modules/@lmdb')) {
    cpSync(`node_modules/@lmdb/${name}`, `${standalone}/node_modules/@lmdb/${name}`, { recursive: true })
  }
}
console.log('Standalone server ready: node .next/standalone/server.js')
