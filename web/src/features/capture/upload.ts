// A recording made elsewhere (a phone's voice memo, a call's export: whatever the browser can
// decode) turned into what the server transcribes without a decoder of its own: 16 kHz mono 16-bit
// PCM, in 30-second chunks (under the 5 MiB a chunk may be) that go through the durable upload
// queue like a live recording's.
import { enqueue } from './chunk-queue.ts'

const RATE = 16_000
const CHUNK_SECONDS = 30

export class UndecodableFile extends Error {}

/** The file's audio as 16 kHz mono samples; UndecodableFile when the browser cannot read it. */
export async function decodeRecording(file: Blob): Promise<Int16Array> {
  const bytes = await file.arrayBuffer()
  // The offline context resamples what it decodes to its own rate.
  const context = new OfflineAudioContext(1, 1, RATE)
  const audio = await context.decodeAudioData(bytes).catch(() => { throw new UndecodableFile('undecodable') })
  const channels = Array.from({ length: audio.numberOfChannels }, (_, index) => audio.getChannelData(index))
  const samples = new Int16Array(audio.length)
  for (let index = 0; index < audio.length; index += 1) {
    let sum = 0
    for (const channel of channels) sum += channel[index]!
    const value = Math.max(-1, Math.min(1, sum / channels.length))
    samples[index] = Math.round(value * 0x7fff)
  }
  return samples
}

/** Queues the samples as the session's chunks, in order; answers how many. */
export async function queueRecording(sessionId: string, samples: Int16Array): Promise<number> {
  const size = RATE * CHUNK_SECONDS
  let sequence = 0
  const base = Date.now()
  for (let start = 0; start < samples.length; start += size) {
    sequence += 1
    const part = samples.slice(start, Math.min(samples.length, start + size))
    await enqueue({
      chunkId: `upl-${crypto.randomUUID()}`, sessionId, sequence, type: `audio/pcm;rate=${RATE}`,
      blob: new Blob([part.buffer], { type: 'application/octet-stream' }), createdAt: base + sequence / 1e6,
    })
  }
  return sequence
}

export const durationMs = (samples: Int16Array) => Math.round(samples.length / RATE * 1000)
