// Confirming (or declining) an engine's suggestion through PATCH /v1/workspace/voice-identities/{id}
// `confirmSpeaker` / `declineSpeaker`; transcript reads then carry the name.
import { expect, it } from 'vitest'
import { eachDatabase, type Harness, type Member } from '../../../test/harness.ts'
import { BUILTIN_MODEL_VERSION } from '../../platform/speech/embedding/index.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments, seedSpeaker } from '../transcripts/testing.ts'
import { identifySession } from './identify.ts'
import * as repo from './repo.ts'
import { unitVector } from './testing.ts'

const voiceOf = (axis: number) => [unitVector(axis), unitVector(axis, 1), unitVector(axis, 2)]

async function enroll(member: Member, axis: number) {
  const started = (await member.post('/v1/account/voice-profile/enrollments', { consent: true })).json()
  const saved = await member.put(`/v1/account/voice-profile/enrollments/${started.enrollmentId}`, { modelVersion: BUILTIN_MODEL_VERSION, embeddings: voiceOf(axis), expectedRevision: 0 })
  expect(saved.statusCode, saved.body).toBe(200)
}

/** A session whose spk_1 the engine only suggests as the colleague (a near voice), spk_2 unnamed. */
async function suggested(h: Harness) {
  const owner = await h.member()
  const colleague = await joinWorkspace(h, owner.workspaceId, 'edit')
  const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
  const outsider = await h.member()
  await enroll(colleague, 20)
  const session = await startRecording(owner)
  await seedSegments(h, session, [{ text: 'The budget is fine.', speakerId: 'spk_1' }, { text: 'Good to hear.', speakerId: 'spk_2' }])
  const near = unitVector(20).map((value, index) => value + (index === 30 ? 1.2 : 0))
  for (const [speakerId, embedding] of [['spk_1', near.map((value) => value / Math.hypot(...near))], ['spk_2', unitVector(33)]] as const) {
    await seedSpeaker(h, session, speakerId)
    await repo.upsertVoice(h.database.db, {
      session_id: session.id, speaker_id: speakerId, workspace_id: owner.workspaceId, embedding: repo.vectorText(embedding), embedding_weight: 5,
      state: 'unnamed', identity_id: null, suggested_identity_id: null, score: null, is_manual: 0, updated_at: new Date().toISOString(),
    })
  }
  await identifySession(h.app.deps, owner.workspaceId, session.id)
  const [voice] = await repo.sessionVoices(h.database.db, session.id)
  expect(voice).toMatchObject({ state: 'suggested' })
  const members = (await owner.get('/v1/workspace/members')).json().members as Array<{ accountId: string; name?: string; email: string }>
  const member = members.find((candidate) => candidate.accountId === colleague.accountId)!
  return { owner, colleague, viewer, outsider, session, identityId: voice!.suggested_identity_id!, name: member.name || member.email }
}

eachDatabase('confirming a suggested speaker', (h) => {
  it('names the speaker in transcript reads and events; the engine keeps it; 400, 401, 403, 404', async () => {
    const { owner, viewer, outsider, session, identityId, name } = await suggested(h)
    const url = `/v1/workspace/voice-identities/${identityId}`
    const before = (await viewer.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(before.speakers[0]).toMatchObject({ label: 'Speaker 1', voice: { state: 'suggested', suggestion: { identityId, displayName: name } } })
    const confirm = { confirmSpeaker: { sessionId: session.id, speakerId: 'spk_1' } }
    expect((await h.anonymous.patch(url, confirm)).statusCode).toBe(401)
    expect((await viewer.patch(url, confirm)).statusCode).toBe(403)
    expect((await outsider.patch(url, confirm)).statusCode).toBe(404)
    expect((await owner.patch(url, { confirmSpeaker: { sessionId: session.id } })).statusCode).toBe(400)
    expect((await owner.patch(url, { ...confirm, declineSpeaker: confirm.confirmSpeaker })).json().errors[0].code).toBe('contradiction')
    expect((await owner.patch(url, { confirmSpeaker: { sessionId: session.id, speakerId: 'spk_9' } })).statusCode).toBe(404)
    const foreign = await startRecording(outsider)
    await seedSpeaker(h, foreign, 'spk_1')
    expect((await owner.patch(url, { confirmSpeaker: { sessionId: foreign.id, speakerId: 'spk_1' } })).statusCode).toBe(404)

    const confirmed = await owner.patch(url, confirm)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.json().sessionSpeakers).toEqual([expect.objectContaining({ sessionId: session.id, speakerId: 'spk_1', state: 'named' })])
    const transcript = (await owner.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(transcript.speakers).toEqual([expect.objectContaining({ speakerId: 'spk_1', label: name, voice: { state: 'named', identityId } }), expect.objectContaining({ speakerId: 'spk_2', label: 'Speaker 2' })])
    expect(transcript.segments.map((segment: { speakerLabel: string }) => segment.speakerLabel)).toEqual([name, 'Speaker 2'])
    const events = await h.app.deps.events.readAfter(session.conversationId, 0, 1000)
    expect(events.at(-1)).toMatchObject({ type: 'speaker.updated', data: { speakerId: 'spk_1', label: name, state: 'named', identityId } })
    // The engine leaves a confirmed speaker alone.
    await identifySession(h.app.deps, owner.workspaceId, session.id)
    expect((await repo.sessionVoices(h.database.db, session.id))[0]).toMatchObject({ state: 'named', identity_id: identityId, is_manual: 1 })
  })

  it('guards with expectedRevision: of two confirmations racing, one gets 409', async () => {
    const { owner, colleague, session, identityId } = await suggested(h)
    const url = `/v1/workspace/voice-identities/${identityId}`
    const revision = (await owner.get(url)).json().identity.revision as number
    const body = { confirmSpeaker: { sessionId: session.id, speakerId: 'spk_1' }, expectedRevision: revision }
    const [first, second] = await Promise.all([owner.patch(url, body), colleague.patch(url, body)])
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409])
    expect((await owner.patch(url, body)).json()).toMatchObject({ code: 'stale_revision', currentRevision: revision + 1 })
  })

  it('declines a suggestion (the engine does not suggest it again) and never names an opted-out speaker', async () => {
    const { owner, session, identityId } = await suggested(h)
    const url = `/v1/workspace/voice-identities/${identityId}`
    const declined = await owner.patch(url, { declineSpeaker: { sessionId: session.id, speakerId: 'spk_1' } })
    expect(declined.statusCode, declined.body).toBe(200)
    await identifySession(h.app.deps, owner.workspaceId, session.id)
    expect((await repo.sessionVoices(h.database.db, session.id))[0]).toMatchObject({ state: 'unnamed', suggested_identity_id: null, is_manual: 1 })
    expect((await owner.post(`/v1/sessions/${session.id}/speakers/spk_2/voice-opt-out`)).statusCode).toBe(200)
    const refused = await owner.patch(url, { confirmSpeaker: { sessionId: session.id, speakerId: 'spk_2' } })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().errors[0].code).toBe('opted_out')
    expect((await owner.get(`/v1/sessions/${session.id}/transcript`)).json().speakers[1].label).toBe('Speaker 2')
  })
})
