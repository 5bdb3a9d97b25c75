// A meeting spoken the way people talk: two voices taking turns with no pause between them. The
// voice activity detector hears one utterance; the transcript still has at least one segment per
// turn, each with its own speaker, punctuated; and the action and the decision said in it reach the
// work set as proposals citing their turns — on SQLite and PostgreSQL.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { hasFfmpeg, hasFlite, hasPocketsphinx, synthesizeMeeting, turnsOfSegments, wordErrorRate } from '../../../test/speech.ts'
import { startRecording, uploadChunk } from '../sessions/testing.ts'

const ready = hasFlite && hasPocketsphinx && hasFfmpeg
// The default engine (Moonshine, shipped in models/) and pocketsphinx, the other offline one.
const ENGINES = ['moonshine', 'pocketsphinx'] as const

const MEETING = [
  { voice: 'slt' as const, text: 'Good morning everyone. The new version is ready and the tests are passing.' },
  { voice: 'rms' as const, text: 'Great. I will send the report to the team by Friday.' },
  { voice: 'slt' as const, text: 'Thank you. We decided to move the launch to next week.' },
  { voice: 'rms' as const, text: 'Sounds good to me.' },
]

type Segment = { id: string; text: string; status: string; speakerId: string; startMs: number; endMs: number }
type WorkObject = { kind: string; title: string; sourceSegmentIds: string[]; proposal?: { state: string } }

for (const engine of ENGINES) eachDatabase(`a spoken meeting without pauses (${engine})`, (h) => {
  it.skipIf(!ready)('has a segment per turn with its speaker, and its action and decision', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const { pcm, turns } = synthesizeMeeting(MEETING, 0)
    for (let offset = 0, index = 0; offset < pcm.length; offset += 32_000, index += 1) {
      expect((await uploadChunk(owner, session.id, `c${index}`, pcm.subarray(offset, offset + 32_000))).statusCode).toBe(200)
    }
    expect((await owner.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(200)
    await h.app.deps.jobs.drain()

    const segments = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=200`)).json().segments as Segment[]
    const text = segments.map((segment) => segment.text).join(' ')
    console.log(`[${h.kind}] WER ${(wordErrorRate(MEETING.map((turn) => turn.text).join(' '), text) * 100).toFixed(1)} %: ${segments.map((segment) => `${segment.speakerId}: ${segment.text}`).join(' | ')}`)
    const turnOf = turnsOfSegments(segments, turns)
    expect(new Set(turnOf)).toEqual(new Set([0, 1, 2, 3]))
    const speakerOfTurn = [0, 1, 2, 3].map((turn) => [...new Set(segments.filter((_, at) => turnOf[at] === turn).map((segment) => segment.speakerId))])
    for (const speakers of speakerOfTurn) expect(speakers).toHaveLength(1)
    expect(speakerOfTurn[0]![0]).not.toBe(speakerOfTurn[1]![0])
    expect(speakerOfTurn[2]![0]).not.toBe(speakerOfTurn[3]![0])
    for (const segment of segments) expect(segment.text).toMatch(/^[A-Z].*[.?]$/)

    const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets as { id: string }[]
    const objects = (await owner.get(`/v1/worksets/${sets[0]!.id}`)).json().workObjects as WorkObject[]
    const cites = (object: WorkObject, turn: number) => object.sourceSegmentIds.some((id) => turnOf[segments.findIndex((segment) => segment.id === id)] === turn)
    const described = JSON.stringify(objects.map((object) => [object.kind, object.title]))
    expect(objects.find((object) => object.kind === 'action' && cites(object, 1) && /report/i.test(object.title)), described).toBeDefined()
    expect(objects.find((object) => object.kind === 'decision' && cites(object, 2) && /decided to move/i.test(object.title)), described).toBeDefined()
  }, 300_000)
}, { env: { STT_ENGINE: engine } })

eachDatabase('spoken numbers in a transcript', (h) => {
  it.skipIf(!ready)('writes a decimal and a clock time as digits, and keeps quantities in words', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const { pcm } = synthesizeMeeting([
      { voice: 'rms', text: 'The contrast fix brought it to 4.6 to 1.' },
      { voice: 'awb', text: 'The alert fired at 9:40 and we had three days left.' },
    ], 600)
    for (let offset = 0, index = 0; offset < pcm.length; offset += 32_000, index += 1) {
      expect((await uploadChunk(owner, session.id, `c${index}`, pcm.subarray(offset, offset + 32_000))).statusCode).toBe(200)
    }
    expect((await owner.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(200)
    await h.app.deps.jobs.drain()
    const text = ((await owner.get(`/v1/sessions/${session.id}/transcript?limit=200`)).json().segments as Segment[]).map((segment) => segment.text).join(' ')
    expect(text).toContain('4.6')
    expect(text).toContain('9:40')
    expect(text).toMatch(/three days/i)
  }, 300_000)
}, { env: { STT_ENGINE: 'pocketsphinx' } })
