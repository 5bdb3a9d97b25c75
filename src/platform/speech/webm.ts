// Resuming a WebM/Opus stream (a browser's MediaRecorder) without decoding it again from its first
// byte: the stream's header (everything before its first Cluster) followed by the bytes from a
// later Cluster on decodes exactly like the whole stream from that Cluster's time, once the
// decoder has warmed up (≈0.1 s; Opus's own pre-roll is 80 ms). Transcription keeps decoding an
// hour-long recording in time proportional to the new audio, not to all of it.
import { SAMPLE_RATE } from './audio.ts'

const CLUSTER = [0x1f, 0x43, 0xb6, 0x75]
const TIMECODE = 0xe7
/** resume this far before the samples wanted, so the decoder has warmed up by then */
export const RESUME_MARGIN_SAMPLES = SAMPLE_RATE

/** EBML variable-size integer at `at`: its value and length, or undefined when cut off. */
function vint(bytes: Uint8Array, at: number): { value: number; length: number } | undefined {
  const first = bytes[at]
  if (first === undefined || first === 0) return undefined
  let length = 1
  let mask = 0x80
  while ((first & mask) === 0) {
    mask >>= 1
    length += 1
  }
  if (at + length > bytes.length) return undefined
  let value = first & (mask - 1)
  for (let index = 1; index < length; index += 1) value = value * 256 + bytes[at + index]!
  return { value, length }
}

export type ClusterMark = { offset: number; timeMs: number }

/**
 * The Clusters in `bytes` (a run of a WebM stream, which may start or end mid-element) with their
 * timecodes in milliseconds (MediaRecorder and ffmpeg keep the default 1 ms timecode scale). An
 * ID is taken for a Cluster only when a size and a Timecode element follow it.
 */
export function clustersIn(bytes: Uint8Array): ClusterMark[] {
  const marks: ClusterMark[] = []
  for (let at = 0; at + 8 < bytes.length; at += 1) {
    if (bytes[at] !== CLUSTER[0] || bytes[at + 1] !== CLUSTER[1] || bytes[at + 2] !== CLUSTER[2] || bytes[at + 3] !== CLUSTER[3]) continue
    const size = vint(bytes, at + 4)
    if (!size || bytes[at + 4 + size.length] !== TIMECODE) continue
    const field = vint(bytes, at + 5 + size.length)
    if (!field || field.value < 1 || field.value > 8) continue
    const start = at + 5 + size.length + field.length
    if (start + field.value > bytes.length) continue
    let timeMs = 0
    for (let index = 0; index < field.value; index += 1) timeMs = timeMs * 256 + bytes[start + index]!
    marks.push({ offset: at, timeMs })
  }
  return marks
}

/** The stream's header: the bytes of its first chunk before its first Cluster (undefined if it holds none). */
export function webmHeader(firstChunk: Uint8Array): Uint8Array | undefined {
  const [first] = clustersIn(firstChunk)
  return first && first.offset > 0 ? firstChunk.subarray(0, first.offset) : undefined
}

/**
 * Where to resume in `suffix` (the stream's last bytes) to get the samples from `fromSample` on:
 * the last Cluster starting at least RESUME_MARGIN_SAMPLES before it. Answers the bytes to decode
 * after the header and the stream sample their first decoded sample stands for.
 */
export function resumePoint(suffix: Uint8Array, fromSample: number): { bytes: Uint8Array; startSample: number } | undefined {
  const target = fromSample - RESUME_MARGIN_SAMPLES
  const usable = clustersIn(suffix).filter((mark) => Math.round((mark.timeMs * SAMPLE_RATE) / 1000) <= target)
  const mark = usable[usable.length - 1]
  if (!mark) return undefined
  return { bytes: suffix.subarray(mark.offset), startSample: Math.round((mark.timeMs * SAMPLE_RATE) / 1000) }
}
