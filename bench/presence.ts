// Presence joins: BENCH_SOCKETS (default 1,000) WebSocket clients open one conversation's channel;
// each open appends a `presence` event to that one conversation's log (its per-conversation seq).
// The first socket (the observer) follows the whole channel; the others join with `channel=work`
// and an `afterSeq` past the end, so they neither replay nor receive the joins: what is measured is
// the joins (handshake, session check, one append each on the one conversation), not the N² fan-out
// of 1,000 joins to 1,000 sockets (the fan-out scenario measures delivery).
// Reported: the wall time from the first joiner's connection attempt until the observer has received
// all the joins, and the span between the first and the last join's `at` (server clock).
import WebSocket from 'ws'

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000)
const BATCH = 100

export type PresenceFigures = { sockets: number; joins: number; wallMs: number; appendSpanMs: number }

export async function benchPresence(baseUrl: string, cookie: string): Promise<PresenceFigures> {
  const created = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ captureMode: 'microphone' }),
  })
  if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
  const session = (await created.json()) as { websocketURL: string }
  const socketUrl = session.websocketURL.replace(/^wss?:\/\/[^/]+/, baseUrl.replace(/^http/, 'ws'))

  const sockets: WebSocket[] = []
  const joinedAt: string[] = []
  let allJoined: (() => void) | undefined
  const joined = new Promise<void>((resolve) => { allJoined = resolve })
  const observer = new WebSocket(socketUrl, { headers: { cookie } })
  await new Promise<void>((resolve, reject) => {
    observer.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { type: string; at?: string; data?: { state?: string } }
      if (message.type === 'hello') return resolve()
      if (message.type !== 'presence' || message.data?.state !== 'joined') return
      joinedAt.push(message.at ?? '')
      if (joinedAt.length === SOCKETS + 1) allJoined?.()
    })
    observer.on('error', reject)
  })
  const joinerUrl = `${socketUrl}${socketUrl.includes('?') ? '&' : '?'}channel=work&afterSeq=1000000000`
  const started = performance.now()
  // Connect in batches of 100 at once: the accept queue of one process is finite.
  for (let start = 0; start < SOCKETS; start += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, SOCKETS - start) }, () => new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(joinerUrl, { headers: { cookie } })
      socket.on('message', (raw) => {
        if ((JSON.parse(String(raw)) as { type: string }).type === 'hello') resolve()
      })
      socket.on('error', reject)
      sockets.push(socket)
    })))
  }
  await Promise.race([joined, new Promise((resolve) => setTimeout(resolve, 120_000))])
  const wallMs = performance.now() - started
  for (const socket of [observer, ...sockets]) socket.terminate()
  // the observer's own join is the first: not counted
  const times = joinedAt.slice(1).map((at) => Date.parse(at)).sort((a, b) => a - b)
  return { sockets: SOCKETS, joins: Math.max(0, joinedAt.length - 1), wallMs: Math.round(wallMs), appendSpanMs: (times.at(-1) ?? 0) - (times[0] ?? 0) }
}

export const presenceRow = (label: string, figures: PresenceFigures) =>
  `${`presence joins, ${figures.sockets} sockets, one conversation (${label})`.padEnd(44)} ${figures.joins} joins delivered in ${figures.wallMs} ms   first to last append ${figures.appendSpanMs} ms`
