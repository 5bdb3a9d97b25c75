// The new audio of a session, decoded: stored chunks after the last processed one, in sequence
// order, to 16 kHz mono samples. PCM and WAV chunks decode alone; a WebM/Ogg chunk without its
// own header continues the stream begun by an earlier chunk. The stream resumes at a WebM Cluster
// or Ogg page a little before the samples not yet consumed (its header + the bytes from there:
// webm.ts, ogg.ts), so each run decodes about as much as is new; without a usable place it is
// decoded again from its first chunk, and only the samples not yet consumed are taken.
import type { AppDeps } from '../../platform/deps.ts'
import { audioFormatOf, decodeToPcm16k, startsStream } from '../../platform/speech/audio.ts'
import { oggHeader, oggResumePoint } from '../../platform/speech/ogg.ts'
import { RESUME_MARGIN_SAMPLES, resumePoint, webmHeader } from '../../platform/speech/webm.ts'
import type { Tables } from '../../platform/db/tables.ts'
import { listChunkRange } from '../sessions/index.ts'

type ChunkRow = Tables['audio_chunks']

export type Decoded = {
  samples: Int16Array[]
  streamFirstSequence: number | null
  streamSamples: number
  /** chunks that could not be decoded (skipped: the rest of the meeting still counts) */
  errors: string[]
}

async function bytesOf(deps: AppDeps, chunk: ChunkRow) {
  const bytes = await deps.blobs.get(chunk.blob_key)
  if (!bytes) throw new Error(`the bytes of chunk ${chunk.chunk_id} are missing from the blob store`)
  return bytes
}

export async function decodeChunks(deps: AppDeps, sessionId: string, chunks: ChunkRow[], stream: { first: number | null; samples: number }): Promise<Decoded> {
  const result: Decoded = { samples: [], streamFirstSequence: stream.first, streamSamples: stream.samples, errors: [] }
  const ffmpeg = deps.config.speech.ffmpegBin
  let streamChunks: ChunkRow[] = []

  const flushStream = async () => {
    if (streamChunks.length === 0) return
    const last = streamChunks[streamChunks.length - 1]!
    const first = result.streamFirstSequence ?? Number(streamChunks[0]!.sequence)
    streamChunks = []
    const rows = await listChunkRange(deps.database.db, sessionId, first, Number(last.sequence))
    const format = audioFormatOf(last.content_type)
    const resumed = (format.container === 'webm' || format.container === 'ogg') && result.streamSamples > RESUME_MARGIN_SAMPLES
      ? await resumeStream(deps, ffmpeg, format.container, rows, result.streamSamples).catch(() => undefined)
      : undefined
    try {
      const { samples, startSample } = resumed ?? { samples: await decodeToPcm16k(ffmpeg, Buffer.concat(await Promise.all(rows.map((row) => bytesOf(deps, row)))), format), startSample: 0 }
      const end = startSample + samples.length
      if (end > result.streamSamples) result.samples.push(samples.subarray(result.streamSamples - startSample))
      result.streamSamples = Math.max(result.streamSamples, end)
    } catch (error) {
      result.errors.push(`chunks ${first}–${last.sequence}: ${(error as Error).message}`)
    }
  }

  for (const chunk of chunks) {
    const format = audioFormatOf(chunk.content_type)
    if (format.container === 'webm' || format.container === 'ogg') {
      const bytes = await bytesOf(deps, chunk)
      if (startsStream(format, bytes) || result.streamFirstSequence === null) {
        await flushStream()
        result.streamFirstSequence = Number(chunk.sequence)
        result.streamSamples = 0
      }
      streamChunks.push(chunk)
      continue
    }
    await flushStream()
    result.streamFirstSequence = null
    result.streamSamples = 0
    try {
      result.samples.push(await decodeToPcm16k(ffmpeg, await bytesOf(deps, chunk), format))
    } catch (error) {
      result.errors.push(`chunk ${chunk.chunk_id}: ${(error as Error).message}`)
    }
  }
  await flushStream()
  return result
}

/** Chunks read backwards at most while looking for a Cluster to resume at (then: decode it all). */
const RESUME_LOOKBACK = 64

const RESUMERS = {
  webm: { header: webmHeader, point: resumePoint },
  ogg: { header: oggHeader, point: oggResumePoint },
}

/**
 * The stream decoded from a Cluster (WebM) or page (Ogg) a little before `fromSample`: its first
 * chunk's header plus the last chunks' bytes, read backwards until they hold such a place.
 * Undefined when none is found within RESUME_LOOKBACK chunks (the caller decodes the whole stream).
 */
export async function resumeStream(deps: AppDeps, ffmpeg: string, container: 'webm' | 'ogg', rows: ChunkRow[], fromSample: number) {
  const { header: headerOf, point: pointOf } = RESUMERS[container]
  const header = headerOf(await bytesOf(deps, rows[0]!))
  if (!header) return undefined
  const suffix: Uint8Array[] = []
  for (let index = rows.length - 1; index >= 1 && index >= rows.length - RESUME_LOOKBACK; index -= 1) {
    suffix.unshift(await bytesOf(deps, rows[index]!))
    const point = pointOf(Buffer.concat(suffix), fromSample)
    if (!point) continue
    const samples = await decodeToPcm16k(ffmpeg, Buffer.concat([header, point.bytes]), { container })
    // Fewer samples than the Cluster's place promises: something is off; decode it all instead.
    return point.startSample + samples.length >= fromSample ? { samples, startSample: point.startSample } : undefined
  }
  return undefined
}
