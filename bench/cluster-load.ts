// The cluster bench's three loads, each through the load balancer: authenticated reads,
// audio ingestion (32 KiB chunks into 50 recording sessions) and realtime fan-out (sockets on one
// conversation, spread over the nodes by the balancer, while the session is renamed).
import autocannon from 'autocannon'
import WebSocket from 'ws'

export type Rate = { perSecond: number; p50: number; p99: number; failures: number }

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = 50
const AUDIO_CHUNK = Buffer.alloc(32 * 1024, 0x5a)
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

export async function loadReads(url: string, cookie: string): Promise<Rate> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers: { cookie } })
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.errors + result.non2xx }
}

let chunksSent = 0

export async function loadAudio(baseUrl: string, sessions: { cookie: string; id: string }[]): Promise<Rate> {
  const result = await autocannon({
    url: baseUrl, connections: sessions.length, duration: DURATION_SECONDS,
    requests: [{
      setupRequest: (request) => {
        const session = sessions[chunksSent % sessions.length]!
        chunksSent += 1
        return {
          ...request, method: 'POST', path: `/v1/sessions/${session.id}/audio`, body: AUDIO_CHUNK,
          headers: { 'content-type': 'audio/pcm;rate=16000', cookie: session.cookie, 'x-service-chunk-id': `cluster-${chunksSent}` },
        }
      },
    }],
  })
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.errors + result.non2xx }
}

export type Fanout = Rate & { sockets: number; renames: number; deliveries: number; expected: number }

/**
 * `sockets` subscribers connect through the balancer (round-robin: spread evenly over the nodes),
 * then 4 writers rename the session as fast as it answers for the bench's duration; every rename
 * is a `session.updated` event for every socket. Delivered events per second from the first
 * rename to the last delivery (at most 20 s after the writers stop), and each delivery's latency
 * from just before its PATCH.
 */
export async function loadFanout(baseUrl: string, cookie: string, sockets: number): Promise<Fanout> {
  const created = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ captureMode: 'microphone' }),
  })
  if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
  const session = (await created.json()) as { id: string; conversationId: string }
  const socketUrl = `${baseUrl.replace(/^http/, 'ws')}/v1/conversations/${session.conversationId}/events`
  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  let lastMessageAt = performance.now()
  let lastDeliveryAt = 0
  const open: WebSocket[] = []
  for (let start = 0; start < sockets; start += 50) {
    await Promise.all(Array.from({ length: Math.min(50, sockets - start) }, () => new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(socketUrl, { headers: { cookie } })
      socket.on('message', (raw) => {
        lastMessageAt = performance.now()
        const message = JSON.parse(String(raw)) as { type: string; data?: { title?: string } }
        if (message.type === 'hello') return resolve()
        const sent = message.type === 'session.updated' && message.data?.title ? sentAt.get(message.data.title) : undefined
        if (sent === undefined) return
        latencies.push(lastMessageAt - sent)
        lastDeliveryAt = lastMessageAt
      })
      socket.on('error', reject)
      open.push(socket)
    })))
  }
  // Every join is a `presence` event for every socket: wait until that storm is over (1 s quiet).
  const settleBy = performance.now() + 120_000
  while (performance.now() - lastMessageAt < 1000 && performance.now() < settleBy) await new Promise((resolve) => setTimeout(resolve, 200))

  let renames = 0
  let failures = 0
  const started = performance.now()
  const stopAt = started + DURATION_SECONDS * 1000
  await Promise.all(Array.from({ length: 4 }, async (_, writer) => {
    for (let index = 0; performance.now() < stopAt; index += 1) {
      const title = `fan-out ${writer}-${index}`
      sentAt.set(title, performance.now())
      const renamed = await fetch(`${baseUrl}/v1/sessions/${session.id}`, {
        method: 'PATCH', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ title }),
      })
      await renamed.arrayBuffer()
      if (renamed.ok) renames += 1
      else failures += 1
    }
  }))
  const expected = renames * open.length
  const drainBy = performance.now() + 20_000
  while (latencies.length < expected && performance.now() < drainBy) await new Promise((resolve) => setTimeout(resolve, 100))
  for (const socket of open) socket.terminate()
  const sorted = latencies.sort((a, b) => a - b)
  return {
    sockets: open.length, renames, deliveries: sorted.length, expected, failures,
    perSecond: sorted.length / Math.max(0.001, ((lastDeliveryAt || performance.now()) - started) / 1000),
    p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)),
  }
}

/** The blob server's own ceiling: 50 loops of PutObject (32 KiB) straight from the bench process. */
export async function loadS3Puts(env: Record<string, string>): Promise<Rate> {
  const { createS3BlobStore } = await import('../src/platform/blobs/s3.ts')
  const store = createS3BlobStore({
    endpoint: env.S3_ENDPOINT, bucket: env.S3_BUCKET!, region: env.S3_REGION ?? 'us-east-1', forcePathStyle: true, prefix: 'ceiling/',
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! },
  })
  const latencies: number[] = []
  let failures = 0
  const started = performance.now()
  const stopAt = started + DURATION_SECONDS * 1000
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, loop) => {
    for (let index = 0; performance.now() < stopAt; index += 1) {
      const sent = performance.now()
      try {
        await store.put(`c${loop}/${index}`, AUDIO_CHUNK)
        latencies.push(performance.now() - sent)
      } catch {
        failures += 1
      }
    }
  }))
  store.close?.()
  const sorted = latencies.sort((a, b) => a - b)
  return { perSecond: sorted.length / ((performance.now() - started) / 1000), p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), failures }
}
