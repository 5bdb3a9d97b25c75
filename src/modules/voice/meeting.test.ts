// End to end through HTTP with the real pipeline (pocketsphinx, voice activity, the built-in
// speaker embedding): two members enroll with their own voices (flite slt and rms), a meeting
// with a third, never-enrolled voice (kal) is recorded; the two are named and the third stays
// "Speaker N"; an opt-out removes a name, and neither the next identification nor the next
// meeting brings it back.
import { expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { hasFfmpeg, hasFlite, hasPocketsphinx, speak, synthesizeMeeting, type Turn } from '../../../test/speech.ts'
import { pcmSamples } from '../../platform/speech/audio.ts'
import { builtinEmbedder } from '../../platform/speech/embedding/index.ts'
import { joinWorkspace, startRecording, uploadChunk } from '../sessions/testing.ts'

const ready = hasFlite && hasPocketsphinx && hasFfmpeg

const ENROLLMENT_TEXTS = [
  'My voice is my own and I agree to be named in our meetings.',
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'Please call me back tomorrow morning about the budget review.',
]

async function enrollWithVoice(member: Member, voice: Turn['voice']) {
  const engine = builtinEmbedder()
  const started = (await member.post('/v1/account/voice-profile/enrollments', { consent: true })).json()
  const embeddings = await Promise.all(ENROLLMENT_TEXTS.map(async (text) => Array.from((await engine.embed(pcmSamples(speak({ voice, text }))))!)))
  const saved = await member.put(`/v1/account/voice-profile/enrollments/${started.enrollmentId}`, {
    modelVersion: started.manifest.modelVersion, embeddings, expectedRevision: started.revision,
  })
  expect(saved.statusCode, saved.body).toBe(200)
}

const MEETING: Turn[] = [
  { voice: 'slt', text: 'Good morning everyone. Let us look at the plan for this week.' },
  { voice: 'rms', text: 'The new version is ready and the tests are passing on every machine.' },
  { voice: 'kal', text: 'I am visiting from the vendor and can answer questions about the contract.' },
  { voice: 'slt', text: 'Please send the report to the whole team by Friday afternoon.' },
  { voice: 'rms', text: 'I will send it tomorrow morning after the review meeting.' },
  { voice: 'kal', text: 'The renewal terms stay the same as last year for your company.' },
]

async function record(h: Parameters<Parameters<typeof eachDatabase>[1]>[0], owner: Member, turns: Turn[], label: string) {
  const session = await startRecording(owner)
  const { pcm, turns: spoken } = synthesizeMeeting(turns)
  const chunkBytes = 4 * 32_000
  for (let offset = 0, index = 0; offset < pcm.length; offset += chunkBytes, index += 1) {
    expect((await uploadChunk(owner, session.id, `${label}-${index}`, pcm.subarray(offset, offset + chunkBytes))).statusCode).toBe(200)
    await h.app.deps.jobs.drain()
  }
  expect((await owner.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(200)
  await h.app.deps.jobs.drain()
  return { session, spoken }
}

/** The label of the speaker of the segment that overlaps each spoken turn most. */
async function labelsOfTurns(owner: Member, sessionId: string, spoken: Array<Turn & { startMs: number; endMs: number }>) {
  const transcript = (await owner.get(`/v1/sessions/${sessionId}/transcript?limit=200`)).json() as { segments: Array<{ speakerId: string; startMs: number; endMs: number }> }
  const token = (await owner.get(`/v1/sessions/${sessionId}/share`)).json().shareToken
  const speakers = (await owner.get(`/v1/shares/${token}`)).json().speakers as Array<{ speakerId: string; label: string }>
  return spoken.map((turn) => {
    const overlap = (segment: { startMs: number; endMs: number }) => Math.min(segment.endMs, turn.endMs) - Math.max(segment.startMs, turn.startMs)
    const segment = [...transcript.segments].sort((a, b) => overlap(b) - overlap(a))[0]
    return { voice: turn.voice, speakerId: segment?.speakerId, label: speakers.find((speaker) => speaker.speakerId === segment?.speakerId)?.label }
  })
}

eachDatabase('naming speakers in a recorded meeting', (h) => {
  it.skipIf(!ready)('names the two enrolled members, leaves the third voice unnamed, and an opt-out removes a name for good', async () => {
    const owner = await h.member()
    const colleague = await joinWorkspace(h, owner.workspaceId, 'edit')
    await enrollWithVoice(owner, 'slt')
    await enrollWithVoice(colleague, 'rms')
    const members = (await owner.get('/v1/workspace/members')).json().members as Array<{ accountId: string; name?: string; email: string }>
    const nameOf = (accountId: string) => { const member = members.find((candidate) => candidate.accountId === accountId)!; return member.name || member.email }

    const { session, spoken } = await record(h, owner, MEETING, 'first')
    const turns = await labelsOfTurns(owner, session.id, spoken)
    for (const turn of turns) {
      if (turn.voice === 'slt') expect(turn.label, JSON.stringify(turns)).toBe(nameOf(owner.accountId))
      if (turn.voice === 'rms') expect(turn.label, JSON.stringify(turns)).toBe(nameOf(colleague.accountId))
      if (turn.voice === 'kal') expect(turn.label, JSON.stringify(turns)).toMatch(/^Speaker \d+$/)
    }
    const events = await h.app.deps.events.readAfter(session.conversationId, 0, 1000)
    expect(events.some((event) => event.type === 'speaker.updated' && (event.data as { label: string }).label === nameOf(colleague.accountId))).toBe(true)

    // The colleague's speaker opts out: the name goes, and does not come back.
    const colleagueSpeaker = turns.find((turn) => turn.voice === 'rms')!.speakerId!
    const optOut = await owner.post(`/v1/sessions/${session.id}/speakers/${colleagueSpeaker}/voice-opt-out`)
    expect(optOut.statusCode, optOut.body).toBe(200)
    expect(optOut.json().speaker.label).toMatch(/^Speaker \d+$/)
    const { identifySession } = await import('./identify.ts')
    await identifySession(h.app.deps, owner.workspaceId, session.id)
    const afterOptOut = await labelsOfTurns(owner, session.id, spoken)
    expect(afterOptOut.filter((turn) => turn.voice === 'rms').every((turn) => /^Speaker \d+$/.test(turn.label!))).toBe(true)

    // slt speaks again after being named: that segment's transcript.final carries the name.
    const next = await record(h, owner, [MEETING[0]!, MEETING[1]!, MEETING[3]!], 'second')
    const nextTurns = await labelsOfTurns(owner, next.session.id, next.spoken)
    expect(nextTurns.find((turn) => turn.voice === 'slt')!.label).toBe(nameOf(owner.accountId))
    expect(nextTurns.find((turn) => turn.voice === 'rms')!.label).toMatch(/^Speaker \d+$/)
    // Once named, the speaker's segments carry the name: in transcript reads and in the last transcript.final.
    const named = nextTurns.find((turn) => turn.voice === 'slt')!.speakerId
    const read = (await owner.get(`/v1/sessions/${next.session.id}/transcript?limit=200`)).json() as { segments: Array<{ speakerId: string; speakerLabel?: string }> }
    expect(read.segments.filter((segment) => segment.speakerId === named).map((segment) => segment.speakerLabel)).toContain(nameOf(owner.accountId))
    const finals = (await h.app.deps.events.readAfter(next.session.conversationId, 0, 1000))
      .filter((event) => event.type === 'transcript.final' && (event.data as { speakerId?: string }).speakerId === named)
    expect((finals.at(-1)!.data as { speakerLabel: string }).speakerLabel).toBe(nameOf(owner.accountId))
  }, 400_000)
}, { env: { STT_ENGINE: 'pocketsphinx' } })
