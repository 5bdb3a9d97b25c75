// Resuming an Ogg/Opus stream (Firefox's MediaRecorder) like a WebM one (webm.ts): its header pages
// (OpusHead, OpusTags: granule position 0) followed by the pages from a later one decode exactly
// like the whole stream from there once Opus has warmed up. A page's granule position counts the
// 48 kHz samples up to its end (pre-skip included), so the page after it starts at that count.
import { SAMPLE_RATE } from './audio.ts'
import { RESUME_MARGIN_SAMPLES } from './webm.ts'

const CAPTURE = [0x4f, 0x67, 0x67, 0x53] // "OggS"
const OPUS_RATE = 48_000

export type PageMark = { offset: number; granule: number }

/** The pages in `bytes` (a run of an Ogg stream) with their granule positions (-1: no packet ends there). */
export function pagesIn(bytes: Uint8Array): PageMark[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const marks: PageMark[] = []
  for (let at = 0; at + 27 <= bytes.length; at += 1) {
    if (bytes[at] !== CAPTURE[0] || bytes[at + 1] !== CAPTURE[1] || bytes[at + 2] !== CAPTURE[2] || bytes[at + 3] !== CAPTURE[3]) continue
    if (bytes[at + 4] !== 0 || (bytes[at + 5]! & 0xf8) !== 0) continue
    marks.push({ offset: at, granule: Number(view.getBigInt64(at + 6, true)) })
  }
  return marks
}

/** The stream's header: the bytes of its first chunk before its first audio page (undefined if it holds none). */
export function oggHeader(firstChunk: Uint8Array): Uint8Array | undefined {
  const audio = pagesIn(firstChunk).find((page) => page.granule > 0)
  return audio && audio.offset > 0 ? firstChunk.subarray(0, audio.offset) : undefined
}

/** Where to resume in `suffix` to get the samples from `fromSample` (16 kHz) on, as webm.ts's resumePoint. */
export function oggResumePoint(suffix: Uint8Array, fromSample: number): { bytes: Uint8Array; startSample: number } | undefined {
  const target = fromSample - RESUME_MARGIN_SAMPLES
  const pages = pagesIn(suffix)
  let found: { bytes: Uint8Array; startSample: number } | undefined
  for (let index = 1; index < pages.length; index += 1) {
    const previous = pages[index - 1]!
    if (previous.granule <= 0) continue
    const startSample = Math.round((previous.granule * SAMPLE_RATE) / OPUS_RATE)
    if (startSample > target) break
    found = { bytes: suffix.subarray(pages[index]!.offset), startSample }
  }
  return found
}
