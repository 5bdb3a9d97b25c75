// Realtime fan-out: 1,000 sockets on one conversation; the session is renamed repeatedly and each
// rename's session.updated event is timed from just before the PATCH to its arrival on every
// socket, one rename at a time. Reported as p50/p99 delivery latency over all deliveries (sockets × events).
import WebSocket from 'ws'

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000)
const EVENTS = 20

export type FanoutFigures = { sockets: number; events: number; deliveries: number; p50: number; p99: number; max: number }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function benchFanout(baseUrl: string, cookie: string): Promise<FanoutFigures> {
  const created = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ captureMode: 'microphone' }),
  })
  if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
  const session = (await created.json()) as { id: string; websocketURL: string }
  const socketUrl = session.websocketURL.replace(/^wss?:\/\/[^/]+/, baseUrl.replace(/^http/, 'ws'))

  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  let pending = 0
  let allArrived: (() => void) | undefined
  const sockets: WebSocket[] = []
  let joins = 0
  let allJoined: (() => void) | undefined
  const joined = new Promise<void>((resolve) => { allJoined = resolve })
  // Connect in batches: the accept queue of one process is finite.
  for (let start = 0; start < SOCKETS; start += 100) {
    await Promise.all(Array.from({ length: Math.min(100, SOCKETS - start) }, () => new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(socketUrl, { headers: { cookie } })
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { type: string; data?: { title?: string } }
        if (message.type === 'hello') return resolve()
        // every socket's join is an event for all: the first socket counts them (it replays from seq 0)
        if (message.type === 'presence' && socket === sockets[0] && (joins += 1) === SOCKETS) allJoined?.()
        if (message.type !== 'session.updated' || !message.data?.title) return
        const sent = sentAt.get(message.data.title)
        if (sent === undefined) return
        latencies.push(performance.now() - sent)
        pending -= 1
        if (pending === 0) allArrived?.()
      })
      socket.on('error', reject)
      sockets.push(socket)
    })))
  }

  // Timing starts once the 1,000 `presence` joins (each an event fanned out to every socket) are
  // all delivered; index -1 is a warm-up and not counted.
  await Promise.race([joined, new Promise((resolve) => setTimeout(resolve, 120_000))])
  for (let index = -1; index < EVENTS; index += 1) {
    const title = `fan-out ${index}`
    pending += sockets.length
    const arrived = new Promise<void>((resolve) => { allArrived = resolve })
    sentAt.set(title, performance.now())
    const renamed = await fetch(`${baseUrl}/v1/sessions/${session.id}`, {
      method: 'PATCH', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ title }),
    })
    if (!renamed.ok) throw new Error(`renaming failed: ${renamed.status} ${await renamed.text()}`)
    await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 60_000))])
    if (index === -1) latencies.length = 0
  }
  for (const socket of sockets) socket.terminate()
  const sorted = latencies.sort((a, b) => a - b)
  return {
    sockets: sockets.length, events: EVENTS, deliveries: sorted.length,
    p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted[sorted.length - 1] ?? 0),
  }
}

export const fanoutRow = (label: string, figures: FanoutFigures) =>
  `${`realtime fan-out, ${figures.sockets} sockets (${label})`.padEnd(44)} ${figures.deliveries} deliveries of ${figures.sockets * figures.events}   p50 ${figures.p50} ms   p99 ${figures.p99} ms   max ${figures.max} ms`
