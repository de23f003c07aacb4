import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { newChatId } from '../lib/protocol'
import { bookOverHttp } from './booking-client'
import { startServer } from './server-process'
import { makeTempDir } from './temp-dir'

const dataDir = makeTempDir('zz-writes')
const server = await startServer({ port: 3655, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: '' } })
const book = (kept: boolean) => bookOverHttp({ baseUrl: server.base, chat: kept ? { id: newChatId(), newChat: true } : undefined })
for (let i = 0; i < 60; i++) await book(i % 2 === 0)
for (const kept of [false, true, false, true]) {
  const out = `/tmp/fp-strace-${kept}-${Math.random()}.txt`
  const tracer = spawn('strace', ['-f', '-c', '-o', out, '-p', String(server.pid)], { stdio: 'ignore' })
  await new Promise((resolve) => setTimeout(resolve, 1000))
  for (let i = 0; i < 50; i++) await book(kept)
  tracer.kill('SIGINT')
  await new Promise((resolve) => tracer.on('exit', resolve))
  const lines = readFileSync(out, 'utf8').split('\n').filter((line) => /writev|write$|pwrite64|fcntl|sendmsg|fsync/.test(line))
  console.log(kept ? 'kept' : 'plain', lines.map((line) => line.trim().split(/\s+/).filter((_, index, all) => index === 3 || index === all.length - 1).join('=')).join(' '))
}
await server.stop()
dataDir.remove()
