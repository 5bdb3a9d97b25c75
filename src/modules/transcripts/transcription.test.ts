import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { hasFfmpeg, hasFlite, hasPocketsphinx, synthesizeMeeting, turnsOfSegments, wordErrorRate } from '../../../test/speech.ts'
import { startRecording, uploadChunk } from '../sessions/testing.ts'

const ready = hasFlite && hasPocketsphinx && hasFfmpeg

const MEETING = [
  { voice: 'slt' as const, text: 'Good morning everyone. Let us look at the plan for this week.' },
  { voice: 'rms' as const, text: 'The new version is ready and the tests are passing.' },
  { voice: 'slt' as const, text: 'Please send the report to the team by Friday.' },
  { voice: 'rms' as const, text: 'I will send it tomorrow morning.' },
]

eachDatabase('transcription with pocketsphinx', (h) => {
  it.skipIf(!ready)('transcribes chunks while recording (partials, then finals), then the rest at the end, with two speakers', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    expect(session.transcriptionEngine).toBe('pocketsphinx')
    const { pcm, turns } = synthesizeMeeting(MEETING)
    const chunkBytes = 3 * 32_000
    for (let offset = 0, index = 0; offset < pcm.length; offset += chunkBytes, index += 1) {
      const response = await uploadChunk(owner, session.id, `c${index}`, pcm.subarray(offset, offset + chunkBytes))
      expect(response.statusCode).toBe(200)
      await h.app.deps.jobs.drain()
    }
    const during = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=200`)).json()
    expect(during.segments.length).toBeGreaterThan(0)
    expect((await owner.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(200)
    await h.app.deps.jobs.drain()
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().state).toBe('ready')

    const transcript = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=200`)).json()
    const segments = transcript.segments as { id: string; text: string; status: string; speakerId: string; startMs: number }[]
    expect(segments.every((segment) => segment.status === 'final')).toBe(true)
    const text = segments.map((segment) => segment.text).join(' ')
    const wer = wordErrorRate(MEETING.map((turn) => turn.text).join(' '), text)
    console.log(`[${h.kind}] WER ${(wer * 100).toFixed(1)} %: ${text}`)
    expect(wer).toBeLessThanOrEqual(0.3)
    // One segment per sentence: every turn has its segments, in order, none spanning two turns.
    const turnOf = turnsOfSegments(segments as unknown as { startMs: number; endMs: number }[], turns)
    expect(turnOf).toEqual([...turnOf].sort((a, b) => a - b))
    expect(new Set(turnOf)).toEqual(new Set(turns.map((_, index) => index)))
    const speakerOfTurn = turns.map((_, index) => [...new Set(segments.filter((_, at) => turnOf[at] === index).map((segment) => segment.speakerId))])
    for (const speakers of speakerOfTurn) expect(speakers).toHaveLength(1)
    const speakers = speakerOfTurn.map((ids) => ids[0])
    expect(new Set(speakers).size).toBe(2)
    expect(speakers[0]).toBe(speakers[2])
    expect(speakers[1]).toBe(speakers[3])
    expect(speakers[0]).not.toBe(speakers[1])
    turns.forEach((turn, index) => expect(Math.abs(segments[turnOf.indexOf(index)]!.startMs - turn.startMs)).toBeLessThanOrEqual(500))
    // Punctuated and capitalized: the first sentence of each turn starts a segment of its own.
    for (const segment of segments) expect(segment.text).toMatch(/^[A-Z].*[.?]$/)
    expect(segments.length).toBeGreaterThanOrEqual(turns.length)
    expect(transcript.speakers).toHaveLength(2)

    const events = await h.app.deps.events.readAfter(session.conversationId, 0)
    const finals = events.filter((event) => event.type === 'transcript.final').map((event) => (event.data as { id: string }).id)
    expect(new Set(finals)).toEqual(new Set(segments.map((segment) => segment.id)))
    const partials = events.filter((event) => event.type === 'transcript.partial').map((event) => (event.data as { id: string }).id)
    // A partial is always finalized under the same id.
    for (const id of partials) expect(finals).toContain(id)
    expect(events.filter((event) => event.type === 'speaker.updated')).toHaveLength(2)
  }, 300_000)
}, { env: { STT_ENGINE: 'pocketsphinx' } })
