import { describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { BUILTIN_MODEL_VERSION, builtinEmbedder } from '../../platform/speech/embedding/index.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments, seedSpeaker } from '../transcripts/testing.ts'
import { identifySession } from './identify.ts'
import { verifyManifest, type Manifest } from './manifest.ts'
import * as repo from './repo.ts'
import { seedVoiceIdentity, unitVector } from './testing.ts'

const DIMENSION = builtinEmbedder().dimension
const voiceOf = (axis: number) => [unitVector(axis), unitVector(axis, 1), unitVector(axis, 2)]

/** The session's speaker labels, as a share link shows them. */
async function labels(member: Member, sessionId: string): Promise<string[]> {
  const token = (await member.get(`/v1/sessions/${sessionId}/share`)).json().shareToken
  const view = (await member.get(`/v1/shares/${token}`)).json()
  return view.speakers.map((speaker: { label: string }) => speaker.label)
}

async function enroll(member: Member, embeddings: number[][], expectedRevision = 0) {
  const started = await member.post('/v1/account/voice-profile/enrollments', { consent: true })
  expect(started.statusCode, started.body).toBe(200)
  return member.put(`/v1/account/voice-profile/enrollments/${started.json().enrollmentId}`, { modelVersion: BUILTIN_MODEL_VERSION, embeddings, expectedRevision })
}

eachDatabase('voice profile', (h) => {
  it('answers 401 without a session', async () => {
    expect((await h.anonymous.get('/v1/account/voice-profile')).statusCode).toBe(401)
    expect((await h.anonymous.post('/v1/account/voice-profile/enrollments', { consent: true })).statusCode).toBe(401)
  })

  it('enrolls with consent against the signed manifest of the one model version', async () => {
    const member = await h.member()
    expect((await member.get('/v1/account/voice-profile')).json()).toMatchObject({ status: 'not-enrolled', revision: 0, currentModelVersion: BUILTIN_MODEL_VERSION })
    expect((await member.post('/v1/account/voice-profile/enrollments', {})).statusCode).toBe(400)
    const started = (await member.post('/v1/account/voice-profile/enrollments', { consent: true })).json()
    const manifest = started.manifest as Manifest
    expect(manifest).toMatchObject({ modelVersion: BUILTIN_MODEL_VERSION, embedding: { size: DIMENSION, metric: 'cosine' }, signature: { algorithm: 'Ed25519' } })
    expect(verifyManifest(manifest, h.config.authSecret!)).toBe(true)
    expect(verifyManifest({ ...manifest, thresholds: { ...manifest.thresholds, match: 0.1 } }, h.config.authSecret!)).toBe(false)
    const model = await member.get(`/v1/account/voice-profile/models/${BUILTIN_MODEL_VERSION}`)
    expect(model.statusCode).toBe(200)
    expect(model.json().parameters.backgroundMean).toHaveLength(DIMENSION)
    expect((await member.get('/v1/account/voice-profile/models/other-model-v9')).statusCode).toBe(404)

    const url = `/v1/account/voice-profile/enrollments/${started.enrollmentId}`
    const wrongModel = await member.put(url, { modelVersion: 'other-model-v9', embeddings: voiceOf(3), expectedRevision: 0 })
    expect(wrongModel.statusCode).toBe(400)
    expect(wrongModel.json()).toMatchObject({ currentModelVersion: BUILTIN_MODEL_VERSION, errors: [{ field: 'modelVersion', code: 'model_version_mismatch' }] })
    const put = (embeddings: number[][]) => member.put(url, { modelVersion: BUILTIN_MODEL_VERSION, embeddings, expectedRevision: 0 })
    expect((await put([unitVector(3).slice(1), unitVector(3), unitVector(3)])).json().errors[0].code).toBe('embedding_size')
    expect((await put([unitVector(3).map((value) => value * 2), unitVector(3), unitVector(3)])).json().errors[0].code).toBe('embedding_norm')
    expect((await put([unitVector(3), unitVector(3), unitVector(9)])).json().errors[0].code).toBe('embedding_incoherent')
    expect((await put([unitVector(3)])).json().errors[0].code).toBe('utterance_count')
    expect((await member.put(url, { modelVersion: BUILTIN_MODEL_VERSION, embeddings: voiceOf(3) })).statusCode).toBe(400)

    const saved = await put(voiceOf(3))
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toMatchObject({ status: 'enrolled', revision: 1, embeddingCount: 3, modelVersion: BUILTIN_MODEL_VERSION })
    expect((await put(voiceOf(3))).statusCode).toBe(409)
    await expect((await h.member()).put(url, { modelVersion: BUILTIN_MODEL_VERSION, embeddings: voiceOf(3), expectedRevision: 0 }).then((response) => response.statusCode)).resolves.toBe(404)
  })

  it('guards the profile with expectedRevision: a stale one gets 409 with the current revision, also when two race', async () => {
    const member = await h.member()
    expect((await enroll(member, voiceOf(4))).statusCode).toBe(200)
    const stale = await enroll(member, voiceOf(4), 0)
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'stale_revision', currentRevision: 1 })
    const [first, second] = await Promise.all([enroll(member, voiceOf(4), 1), enroll(member, voiceOf(4), 1)])
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409])
    expect((await member.get('/v1/account/voice-profile')).json().revision).toBe(2)
  })

  it('deletes the profile and the identities and names made from it, everywhere', async () => {
    const member = await h.member()
    expect((await enroll(member, voiceOf(6))).statusCode).toBe(200)
    const session = await startRecording(member)
    await seedSpeaker(h, session, 'spk_1')
    await repo.upsertVoice(h.database.db, {
      session_id: session.id, speaker_id: 'spk_1', workspace_id: member.workspaceId, embedding: repo.vectorText(unitVector(6)), embedding_weight: 4,
      state: 'unnamed', identity_id: null, suggested_identity_id: null, score: null, is_manual: 0, updated_at: new Date().toISOString(),
    })
    await identifySession(h.app.deps, member.workspaceId, session.id)
    expect(await labels(member, session.id)).toEqual([expect.not.stringMatching(/^Speaker/)])
    const deleted = await member.delete('/v1/account/voice-profile')
    expect(deleted.json()).toEqual({ deleted: true, deletedIdentities: 1, unnamedSpeakers: 1 })
    expect((await member.get('/v1/account/voice-profile')).json().status).toBe('not-enrolled')
    expect((await repo.sessionVoices(h.database.db, session.id))[0]!.embedding).toBeNull()
    expect(await labels(member, session.id)).toEqual(['Speaker 1'])
    expect((await member.delete('/v1/account/voice-profile')).json().deleted).toBe(false)
  })
})

eachDatabase('workspace voice identities', (h) => {
  async function team() {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const outsider = await h.member()
    const session = await startRecording(owner)
    return { owner, viewer, outsider, session }
  }

  it('reads an identity with its utterances; 404 elsewhere, 401 without a session', async () => {
    const { owner, viewer, outsider, session } = await team()
    const identityId = await seedVoiceIdentity(h, owner, session.id, 'spk_1')
    await seedSegments(h, session, [{ text: 'First words.', speakerId: 'spk_1' }, { text: 'Someone else.', speakerId: 'spk_2' }])
    const detail = await viewer.get(`/v1/workspace/voice-identities/${identityId}`)
    expect(detail.statusCode).toBe(200)
    expect(detail.json().identity).toMatchObject({ id: identityId, displayName: 'Seeded voice', hasCentroid: true, sessionSpeakers: [{ sessionId: session.id, speakerId: 'spk_1' }] })
    expect(detail.json().utterances.map((utterance: { text: string }) => utterance.text)).toEqual(['First words.'])
    expect(JSON.stringify(detail.json())).not.toContain('centroid"')
    expect((await outsider.get(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(404)
    expect((await h.anonymous.get(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(401)
  })

  it('renames and links (a manual name relabels its speakers), with 400, 403 and a 409 revision guard', async () => {
    const { owner, viewer, session } = await team()
    const identityId = await seedVoiceIdentity(h, owner, session.id, 'spk_1')
    const url = `/v1/workspace/voice-identities/${identityId}`
    expect((await viewer.patch(url, { displayName: 'Ada' })).statusCode).toBe(403)
    expect((await owner.patch(url, {})).statusCode).toBe(400)
    expect((await owner.patch(url, { memberAccountId: 'acc_nobody' })).json().errors[0].code).toBe('not_a_member')
    const renamed = await owner.patch(url, { displayName: 'Ada', expectedRevision: 1 })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json()).toMatchObject({ displayName: 'Ada', nameIsManual: true, revision: 2 })
    const speakers = (await owner.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(JSON.stringify(speakers)).toContain('Ada')
    const stale = await owner.patch(url, { displayName: 'Grace', expectedRevision: 1 })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'stale_revision', currentRevision: 2 })
    const [first, second] = await Promise.all([owner.patch(url, { displayName: 'A', expectedRevision: 2 }), owner.patch(url, { displayName: 'B', expectedRevision: 2 })])
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409])
    const linked = await owner.patch(url, { memberAccountId: viewer.accountId })
    expect(linked.json().memberAccountId).toBe(viewer.accountId)
  })

  it('merges (speakers united, mergedFrom kept, centroid recomputed) and splits a speaker out', async () => {
    const { owner, viewer, outsider, session } = await team()
    const first = await seedVoiceIdentity(h, owner, session.id, 'spk_1', { axis: 1 })
    const second = await seedVoiceIdentity(h, owner, session.id, 'spk_2', { axis: 2 })
    const foreign = await seedVoiceIdentity(h, outsider, (await startRecording(outsider)).id, 'spk_1')
    expect((await viewer.post(`/v1/workspace/voice-identities/${first}/merge`, { targetIdentityId: second })).statusCode).toBe(403)
    expect((await owner.post(`/v1/workspace/voice-identities/${first}/merge`, { targetIdentityId: first })).statusCode).toBe(400)
    expect((await owner.post(`/v1/workspace/voice-identities/${first}/merge`, { targetIdentityId: foreign })).statusCode).toBe(404)
    const before = (await repo.findIdentity(h.database.db, owner.workspaceId, second))!.centroid
    const merged = await owner.post(`/v1/workspace/voice-identities/${first}/merge`, { targetIdentityId: second })
    expect(merged.statusCode, merged.body).toBe(200)
    expect(merged.json().identity).toMatchObject({ id: second, mergedFrom: [first] })
    expect(merged.json().identity.sessionSpeakers).toHaveLength(2)
    expect((await repo.findIdentity(h.database.db, owner.workspaceId, second))!.centroid).not.toBe(before)
    expect((await owner.get(`/v1/workspace/voice-identities/${first}`)).statusCode).toBe(404)

    const url = `/v1/workspace/voice-identities/${second}/split`
    expect((await viewer.post(url, { sessionId: session.id, speakerId: 'spk_1' })).statusCode).toBe(403)
    expect((await owner.post(url, { sessionId: session.id })).statusCode).toBe(400)
    expect((await owner.post(url, { sessionId: session.id, speakerId: 'spk_9' })).statusCode).toBe(404)
    const split = await owner.post(url, { sessionId: session.id, speakerId: 'spk_1' })
    expect(split.statusCode, split.body).toBe(200)
    expect(split.json().identity.sessionSpeakers.map((speaker: { speakerId: string }) => speaker.speakerId)).toEqual(['spk_2'])
    expect(split.json().splitIdentity).toMatchObject({ source: 'manual', sessionSpeakers: [{ speakerId: 'spk_1' }] })
    expect((await owner.post(url, { sessionId: session.id, speakerId: 'spk_1' })).json().errors[0].code).toBe('not_in_identity')
  })

  it('deletes an identity with its embeddings; its speakers are Speaker N again', async () => {
    const { owner, viewer, outsider, session } = await team()
    const identityId = await seedVoiceIdentity(h, owner, session.id, 'spk_1')
    expect((await viewer.delete(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(403)
    expect((await outsider.delete(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(404)
    const deleted = await owner.delete(`/v1/workspace/voice-identities/${identityId}`)
    expect(deleted.json()).toEqual({ deleted: true, identityId, unnamedSpeakers: 1 })
    const [voice] = await repo.sessionVoices(h.database.db, session.id)
    expect(voice).toMatchObject({ embedding: null, identity_id: null, state: 'unnamed' })
    expect((await owner.delete(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(404)
  })
})

eachDatabase('identification and opt-out', (h) => {
  const seedVoice = (sessionId: string, workspaceId: string, speakerId: string, embedding: number[]) => repo.upsertVoice(h.database.db, {
    session_id: sessionId, speaker_id: speakerId, workspace_id: workspaceId, embedding: repo.vectorText(embedding), embedding_weight: 5,
    state: 'unnamed', identity_id: null, suggested_identity_id: null, score: null, is_manual: 0, updated_at: new Date().toISOString(),
  })

  it('names an enrolled member, suggests a near one, leaves others Speaker N; an opt-out deletes and is never matched again', async () => {
    const owner = await h.member()
    const colleague = await joinWorkspace(h, owner.workspaceId, 'view')
    const outsider = await h.member()
    expect((await enroll(owner, voiceOf(10))).statusCode).toBe(200)
    expect((await enroll(colleague, voiceOf(20))).statusCode).toBe(200)
    const session = await startRecording(owner)
    for (const speakerId of ['spk_1', 'spk_2', 'spk_3']) await seedSpeaker(h, session, speakerId)
    await seedVoice(session.id, owner.workspaceId, 'spk_1', unitVector(10))
    const near = unitVector(20).map((value, index) => value + (index === 30 ? 1.2 : 0))
    await seedVoice(session.id, owner.workspaceId, 'spk_2', near.map((value) => value / Math.hypot(...near)))
    await seedVoice(session.id, owner.workspaceId, 'spk_3', unitVector(33))
    await identifySession(h.app.deps, owner.workspaceId, session.id)
    const voices = await repo.sessionVoices(h.database.db, session.id)
    expect(voices.map((voice) => voice.state)).toEqual(['named', 'suggested', 'unnamed'])
    expect(await labels(owner, session.id)).toEqual([expect.not.stringMatching(/^Speaker/), 'Speaker 2', 'Speaker 3'])

    const url = `/v1/sessions/${session.id}/speakers/spk_1/voice-opt-out`
    expect((await h.anonymous.post(url)).statusCode).toBe(401)
    expect((await outsider.post(url)).statusCode).toBe(404)
    expect((await owner.post(`/v1/sessions/${session.id}/speakers/spk_9/voice-opt-out`)).statusCode).toBe(404)
    const optedOut = await colleague.post(url)
    expect(optedOut.statusCode, optedOut.body).toBe(200)
    expect(optedOut.json()).toEqual({ optedOut: true, deletedIdentity: false, speaker: { sessionId: session.id, speakerId: 'spk_1', label: 'Speaker 1' } })
    await seedVoice(session.id, owner.workspaceId, 'spk_1', unitVector(10))
    await identifySession(h.app.deps, owner.workspaceId, session.id)
    const after = await repo.sessionVoices(h.database.db, session.id)
    expect((await labels(owner, session.id))[0]).toBe('Speaker 1')
    expect(after[0]).toMatchObject({ state: 'opted-out', embedding: null })
    // The member named there is not matched in this workspace any more, in any session.
    expect((await owner.get('/v1/account/voice-profile')).json().optedOutWorkspaceIds).toEqual([owner.workspaceId])
  })

  it('deletes an identity built only from the opted-out speaker (deletedIdentity)', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const identityId = await seedVoiceIdentity(h, owner, session.id, 'spk_1')
    const response = await owner.post(`/v1/sessions/${session.id}/speakers/spk_1/voice-opt-out`)
    expect(response.json()).toMatchObject({ optedOut: true, deletedIdentity: true })
    expect((await owner.get(`/v1/workspace/voice-identities/${identityId}`)).statusCode).toBe(404)
    expect((await owner.post(`/v1/sessions/${session.id}/speakers/spk_1/voice-opt-out`)).json().deletedIdentity).toBe(false)
  })
})

describe('speaker embeddings', () => {
  it('gives no embedding for silence and unit-length ones for sound', async () => {
    const engine = builtinEmbedder()
    expect(await engine.embed(new Int16Array(16000))).toBeUndefined()
    const tone = Int16Array.from({ length: 32000 }, (_, index) => Math.round(8000 * Math.sin(index / 10) * (1 + Math.sin(index / 900))))
    const embedding = (await engine.embed(tone))!
    expect(embedding).toHaveLength(engine.dimension)
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 5)
  })
})
