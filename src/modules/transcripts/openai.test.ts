// The OpenAI-compatible engine's punctuated text and word timings go through the same turns and
// sentences as pocketsphinx's words: a two-voice meeting without pauses, transcribed by a local
// server speaking the OpenAI transcription protocol, becomes one segment per written sentence, cut
// where the voice changes, with the engine's own punctuation kept — on SQLite and PostgreSQL.
import { afterAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { hasFfmpeg, hasFlite, synthesizeMeeting, turnsOfSegments } from '../../../test/speech.ts'
import { transcriptionServer } from '../../../test/transcription-server.ts'
import { startRecording, uploadChunk } from '../sessions/testing.ts'

const MEETING = [
  { voice: 'slt' as const, text: 'Good morning, everyone. The new version is ready, and the tests are passing.' },
  { voice: 'rms' as const, text: 'Great. I will send the report to the team by Friday.' },
  { voice: 'slt' as const, text: 'Thank you! We decided to move the launch to next week.' },
  { voice: 'rms' as const, text: 'Sounds good to me.' },
]

const server = transcriptionServer()
await server.start()
afterAll(() => server.stop())

type Segment = { id: string; text: string; speakerId: string; startMs: number; endMs: number; engine: string; words?: unknown[] }

eachDatabase('the OpenAI-compatible engine through turns and sentences', (h) => {
  it.skipIf(!(hasFlite && hasFfmpeg))('keeps the engine\'s sentences and punctuation, one segment each, cut at voice changes', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    expect(session.transcriptionEngine).toBe('openai')
    const { pcm, turns } = synthesizeMeeting(MEETING, 0)
    server.setScript(turns)
    for (let offset = 0, index = 0; offset < pcm.length; offset += 32_000, index += 1) {
      expect((await uploadChunk(owner, session.id, `c${index}`, pcm.subarray(offset, offset + 32_000))).statusCode).toBe(200)
    }
    expect((await owner.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(200)
    await h.app.deps.jobs.drain()

    const segments = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=200`)).json().segments as Segment[]
    expect(server.requests.length).toBeGreaterThan(0)
    expect(server.requests[0]!.formats).toContain('word')
    expect(segments.every((segment) => segment.engine === 'openai' && segment.words?.length)).toBe(true)
    // The engine's punctuation is kept as written.
    expect(segments.map((segment) => segment.text)).toEqual(expect.arrayContaining(['Great.', 'I will send the report to the team by Friday.', 'Thank you!', 'Sounds good to me.']))
    const turnOf = turnsOfSegments(segments, turns)
    expect(new Set(turnOf)).toEqual(new Set([0, 1, 2, 3]))
    const speakerOfTurn = [0, 1, 2, 3].map((turn) => [...new Set(segments.filter((_, at) => turnOf[at] === turn).map((segment) => segment.speakerId))])
    for (const speakers of speakerOfTurn) expect(speakers).toHaveLength(1)
    expect(speakerOfTurn[0]![0]).not.toBe(speakerOfTurn[1]![0])
    expect(speakerOfTurn[1]![0]).not.toBe(speakerOfTurn[2]![0])
  }, 120_000)
}, { env: { STT_ENGINE: 'openai', STT_OPENAI_URL: server.url() } })
