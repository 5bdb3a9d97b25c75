import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { encode, hasFfmpeg } from '../../../test/speech.ts'
import { decodeToPcm16k } from '../../platform/speech/audio.ts'
import { startRecording, uploadChunk } from '../sessions/testing.ts'
import { decodeChunks, resumeStream } from './decode.ts'

function noise(seconds: number): Buffer {
  const samples = new Int16Array(seconds * 16_000)
  let state = 99
  for (let index = 0; index < samples.length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) >>> 0
    samples[index] = ((state >>> 16) % 12_000) - 6000
  }
  return Buffer.from(samples.buffer)
}

eachDatabase('decoding a recording in rounds', (h) => {
  it.skipIf(!hasFfmpeg).each(['webm', 'ogg'] as const)('resumes a %s stream near where the last round stopped and yields the same audio as decoding it whole', async (container) => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const webm = encode(noise(30), container)
    const pieces = 10
    for (let index = 0; index < pieces; index += 1) {
      const piece = webm.subarray(Math.floor((index * webm.length) / pieces), Math.floor(((index + 1) * webm.length) / pieces))
      expect((await uploadChunk(owner, session.id, `w${index}`, piece, { contentType: `audio/${container};codecs=opus` })).statusCode).toBe(200)
    }
    const rows = await h.database.db.selectFrom('audio_chunks').selectAll().where('session_id', '=', session.id).orderBy('sequence').execute()
    const whole = await decodeToPcm16k('ffmpeg', webm, { container })

    // Three rounds, as transcription runs while the meeting goes on.
    let stream = { first: null as number | null, samples: 0 }
    const parts: Int16Array[] = []
    for (const batch of [rows.slice(0, 4), rows.slice(4, 7), rows.slice(7)]) {
      const decoded = await decodeChunks(h.app.deps, session.id, batch, stream)
      expect(decoded.errors).toEqual([])
      parts.push(...decoded.samples)
      stream = { first: decoded.streamFirstSequence, samples: decoded.streamSamples }
    }
    const stitched = Int16Array.from(parts.flatMap((part) => [...part]))
    // Each seam may repeat or skip a few samples (≤ 10 ms); the audio is otherwise the same.
    expect(Math.abs(stitched.length - whole.length)).toBeLessThanOrEqual(320)
    const at = 20 * 16_000
    const window = stitched.subarray(at, at + 2000)
    const match = [...Array(321).keys()].map((step) => step - 160).find((shift) => window.every((sample, index) => sample === whole[at + shift + index]))
    expect(match).toBeDefined()

    // The later rounds resumed at a Cluster / page instead of decoding from the first byte.
    const resumed = await resumeStream(h.app.deps, 'ffmpeg', container, rows, 25 * 16_000)
    expect(resumed!.startSample).toBeGreaterThan(15 * 16_000)
  })
})
