// The flood of `bench/overload.ts`, in its own process: junk `POST /api/chat` requests sent as
// fast as the server answers them, by FLOOD_LOOPS loops at once, each request from the next of
// FLOOD_ADDRESSES client addresses (X-Forwarded-For; the server runs with TRUST_PROXY=1). The
// body is `{}`: valid JSON, so the server charges it to its address and then to the server-wide
// budget as new work before the contract refuses it (400); once the budget is down to its
// reserve, the server refuses it with a server-scope 429 instead. Retry-After is ignored.
//
// Its own process so that the hundreds of responses a second it handles never wait in the
// measuring process's event loop ahead of the answers being timed there. Plain node:http with
// keep-alive: the cheapest client, so the flood spends the machine's CPU on the server.
//
// IPC: the parent sends { type: 'report' } and gets { type: 'report', at, counts } (at: this
// process's clock in ms); it gets { type: 'spent', at } once, on the first server-scope 429; it
// sends { type: 'stop' }, the loops end after their request in flight, and the last report
// comes back before this process exits. It exits too if the parent goes away.
import http from 'node:http'

const port = Number(process.env.FLOOD_PORT)
const loops = Number(process.env.FLOOD_LOOPS)
const addressCount = Number(process.env.FLOOD_ADDRESSES)
/** One address per /24 (10.128.0.2, 10.128.1.2, …, 10.129.0.2, …): no two share a group, the harder case for the server's fairness. */
const addresses = Array.from({ length: addressCount }, (_, index) => `10.${128 + (index >> 8)}.${index & 255}.2`)
const BODY = '{}'
const TIMEOUT_MS = 10_000

const agent = new http.Agent({ keepAlive: true, maxSockets: loops })
const counts = { done: 0, badRequest: 0, serverRefused: 0, addressRefused: 0, other: 0, errors: 0 }
let next = 0
let stopping = false
let spentSeen = false

function classify(status, text) {
  counts.done++
  if (status === 400) counts.badRequest++
  else if (status === 429 && text.includes('"scope":"server"')) {
    counts.serverRefused++
    if (!spentSeen) {
      spentSeen = true
      process.send?.({ type: 'spent', at: performance.now() })
    }
  } else if (status === 429) counts.addressRefused++
  else counts.other++
}

function send(address) {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/chat',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY), 'x-forwarded-for': address },
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          classify(response.statusCode, Buffer.concat(chunks).toString('utf8'))
          resolve()
        })
        response.on('error', () => {
          counts.errors++
          resolve()
        })
      },
    )
    request.setTimeout(TIMEOUT_MS, () => request.destroy(new Error('timed out')))
    request.on('error', () => {
      counts.errors++
      resolve()
    })
    request.end(BODY)
  })
}

async function loop() {
  while (!stopping) await send(addresses[next++ % addresses.length])
}

const report = (then) => process.send?.({ type: 'report', at: performance.now(), counts: { ...counts } }, then)
const running = Array.from({ length: loops }, loop)

process.on('message', async (message) => {
  if (message?.type === 'report') report()
  if (message?.type === 'stop') {
    stopping = true
    await Promise.all(running)
    agent.destroy()
    report(() => process.disconnect?.())
  }
})
process.on('disconnect', () => process.exit(0))
