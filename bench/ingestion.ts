// Audio ingestion at a steady rate: N recording streams (one account and session each, since an
// account records one session at a time) each send one 32 KiB chunk per second, their starts
// spread evenly over the second, for BENCH_DURATION seconds (open loop: a slow answer does not slow
// the senders down). Every 200 means the chunk is durable. Reported: p50/p99/max acknowledgement
// latency and the chunks acknowledged per second, for each N of BENCH_STREAMS (default 50,200,1000).
import http from 'node:http'

export type IngestionFigures = { streams: number; sent: number; acknowledged: number; failed: number; perSecond: number; p50: number; p99: number; max: number }

const CHUNK = Buffer.alloc(32 * 1024, 0x5a)

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

type Stream = { cookie: string; sessionId: string }

export async function prepareStreams(baseUrl: string, count: number, signIn: () => Promise<string>): Promise<Stream[]> {
  const streams: Stream[] = []
  for (let start = 0; start < count; start += 10) {
    streams.push(...await Promise.all(Array.from({ length: Math.min(10, count - start) }, async () => {
      const cookie = await signIn()
      const created = await fetch(`${baseUrl}/v1/sessions`, {
        method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ captureMode: 'microphone' }),
      })
      if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
      return { cookie, sessionId: ((await created.json()) as { id: string }).id }
    })))
  }
  return streams
}

let runs = 0

export async function benchIngestion(baseUrl: string, streams: Stream[], seconds: number): Promise<IngestionFigures> {
  const run = (runs += 1)
  const { hostname, port } = new URL(baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
  const latencies: number[] = []
  let sent = 0
  let failed = 0
  const post = (stream: Stream, index: number) => new Promise<void>((resolve) => {
    const started = performance.now()
    sent += 1
    const request = http.request({
      host: hostname, port, agent, method: 'POST', path: `/v1/sessions/${stream.sessionId}/audio`,
      headers: {
        cookie: stream.cookie, 'content-type': 'audio/pcm;rate=16000', 'content-length': CHUNK.byteLength,
        'x-service-chunk-id': `steady-${run}-${index}`,
      },
    }, (response) => {
      response.resume()
      response.on('end', () => {
        if (response.statusCode === 200) latencies.push(performance.now() - started)
        else failed += 1
        resolve()
      })
    })
    request.on('error', () => {
      failed += 1
      resolve()
    })
    request.end(CHUNK)
  })
  const began = performance.now()
  const pending: Promise<void>[] = []
  await Promise.all(streams.map(async (stream, offset) => {
    await new Promise((resolve) => setTimeout(resolve, (offset / streams.length) * 1000))
    for (let index = 0; index < seconds; index += 1) {
      pending.push(post(stream, index))
      const next = began + (offset / streams.length) * 1000 + (index + 1) * 1000
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())))
    }
  }))
  await Promise.all(pending)
  const elapsed = (performance.now() - began) / 1000
  agent.destroy()
  const sorted = latencies.sort((a, b) => a - b)
  return {
    streams: streams.length, sent, acknowledged: sorted.length, failed, perSecond: sorted.length / elapsed,
    p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0,
  }
}

export const ingestionRow = (label: string, figures: IngestionFigures) =>
  `${`audio, ${figures.streams} streams × 1 chunk/s (${label})`.padEnd(44)} ${figures.acknowledged}/${figures.sent} acknowledged` +
  ` (${figures.perSecond.toFixed(0)}/s)   p50 ${figures.p50.toFixed(1)} ms   p99 ${figures.p99.toFixed(1)} ms   max ${figures.max.toFixed(0)} ms` +
  (figures.failed > 0 ? `   (${figures.failed} failed)` : '')
