import { describe, expect, it } from 'vitest'
import { encode, hasFfmpeg } from '../../../test/speech.ts'
import { decodeToPcm16k } from './audio.ts'
import { clustersIn, resumePoint, webmHeader } from './webm.ts'

/** 40 s of noise that never repeats (a tone would align anywhere). */
function noise(seconds: number): Buffer {
  const samples = new Int16Array(seconds * 16_000)
  let state = 12_345
  for (let index = 0; index < samples.length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) >>> 0
    samples[index] = ((state >>> 16) % 12_000) - 6000
  }
  return Buffer.from(samples.buffer)
}

describe.skipIf(!hasFfmpeg)('resuming a WebM/Opus stream', () => {
  it('decodes header + the bytes from a late Cluster like the whole stream from there', async () => {
    const webm = encode(noise(40), 'webm')
    const whole = await decodeToPcm16k('ffmpeg', webm, { container: 'webm' })
    // A MediaRecorder's pieces: cut anywhere, only the first holds the header.
    const pieces = Array.from({ length: 9 }, (_, index) => webm.subarray(Math.floor((index * webm.length) / 9), Math.floor(((index + 1) * webm.length) / 9)))
    const header = webmHeader(pieces[0]!)!
    expect(header.length).toBeGreaterThan(0)
    expect(clustersIn(webm).length).toBeGreaterThan(4)

    const from = 25 * 16_000
    const suffix = Buffer.concat(pieces.slice(4))
    const point = resumePoint(suffix, from)!
    expect(point.startSample).toBeLessThanOrEqual(from - 16_000)
    const resumed = await decodeToPcm16k('ffmpeg', Buffer.concat([header, point.bytes]), { container: 'webm' })
    const taken = resumed.subarray(from - point.startSample)
    // The same samples as the whole decode, give or take a shift of at most 10 ms at the seam.
    let shift: number | undefined
    for (let offset = -160; offset <= 160 && shift === undefined; offset += 1) {
      if (taken.subarray(0, 4000).every((sample, index) => sample === whole[from + offset + index])) shift = offset
    }
    expect(shift).toBeDefined()
    expect(taken.length).toBe(whole.length - from - shift!)
    expect(taken.every((sample, index) => sample === whole[from + shift! + index])).toBe(true)
  })

  it('finds no resume point before the margin, and no header in a piece without a Cluster', () => {
    const webm = encode(noise(6), 'webm')
    expect(resumePoint(webm, 8000)).toBeUndefined()
    expect(webmHeader(webm.subarray(0, 20))).toBeUndefined()
  })
})
