// The new audio of a session, decoded: stored chunks after the last processed one, in sequence
// order, to 16 kHz mono samples. PCM and WAV chunks decode alone; a WebM/Ogg chunk without its
// own header continues the stream begun by an earlier chunk, so that stream is decoded again from
// its first chunk and only the samples not yet consumed are taken.
import type { AppDeps } from '../../app.ts'
import { audioFormatOf, decodeToPcm16k, startsStream } from '../../platform/speech/audio.ts'
import type { Tables } from '../../platform/db/tables.ts'

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
    const rows = await deps.database.db.selectFrom('audio_chunks').selectAll().where('session_id', '=', sessionId)
      .where('sequence', '>=', first).where('sequence', '<=', Number(last.sequence)).orderBy('sequence').execute()
    const whole = Buffer.concat(await Promise.all(rows.map((row) => bytesOf(deps, row))))
    try {
      const decoded = await decodeToPcm16k(ffmpeg, whole, audioFormatOf(last.content_type))
      if (decoded.length > result.streamSamples) result.samples.push(decoded.subarray(result.streamSamples))
      result.streamSamples = Math.max(result.streamSamples, decoded.length)
    } catch (error) {
      result.errors.push(`chunks ${first}–${last.sequence}: ${(error as Error).message}`)
    }
    streamChunks = []
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
