// Naming a session speaker (PATCH /v1/sessions/{sessionId}/speakers/{speakerId}): the transcript's
// labels, the `speaker.updated` event (replayed to a late reader), the session's work suggesting the
// old label as owner, and a name that wins over voice recognition — through HTTP on SQLite and
// PostgreSQL.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { capture, eventsOf } from '../work/testing.ts'
import { seedVoiceIdentity } from './testing.ts'

eachDatabase('naming a session speaker', (h) => {
  it('names "Speaker 2" in the transcript, the events and the work it was suggested to own; null gives the label back', async () => {
    const owner = await h.member()
    const editor = await joinWorkspace(h, owner.workspaceId, 'edit')
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const session = await startRecording(owner, { title: 'Client call' })
    // A speaker only its segments name (a client's own recognizer): no session speaker row yet.
    const [, said] = await seedSegments(h, session, [{ text: 'Good morning.', speakerId: 'spk_1' }, { text: 'I will send the numbers by Friday.', speakerId: 'spk_2' }])
    const item = await capture(owner, session.id, { kind: 'action', title: 'Send the numbers', sourceSegmentIds: [said] })
    // As the extraction engine writes it for a voice known as no one.
    await h.database.db.updateTable('work_objects').set({ owner_hint: 'Speaker 2' }).where('id', '=', item.id).execute()
    const url = `/v1/sessions/${session.id}/speakers/spk_2`

    const named = await editor.patch(url, { name: '  Dana Li ' })
    expect(named.statusCode, named.body).toBe(200)
    expect(named.json()).toEqual({ speaker: { sessionId: session.id, speakerId: 'spk_2', label: 'Dana Li', voice: { state: 'unnamed' } }, renamedOwners: 1 })

    const transcript = (await viewer.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(transcript.speakers).toEqual(expect.arrayContaining([expect.objectContaining({ speakerId: 'spk_2', label: 'Dana Li' })]))
    expect(transcript.segments.find((segment: { id: string }) => segment.id === said)).toMatchObject({ speakerId: 'spk_2', speakerLabel: 'Dana Li' })
    const object = (await viewer.get(`/v1/workobjects/${item.id}`)).json()
    expect(object.suggestedOwnerName).toBe('Dana Li')
    const activity = (await viewer.get(`/v1/workobjects/${item.id}/activity`)).json()
    expect(activity.filter((entry: { field?: string }) => entry.field === 'suggestedOwnerName')).toEqual([expect.objectContaining({ oldValue: 'Speaker 2', newValue: 'Dana Li' })])
    const events = await eventsOf(h, session.conversationId)
    expect(events.filter((event) => event.type === 'speaker.updated').map((event) => event.data)).toEqual([{ speakerId: 'spk_2', label: 'Dana Li', state: 'unnamed' }])
    expect(events.filter((event) => event.type === 'workobject.updated').at(-1)!.data.workObject).toMatchObject({ id: item.id, suggestedOwnerName: 'Dana Li' })
    // A name is manual: voice recognition leaves it alone.
    expect(await h.database.db.selectFrom('voice_speakers').select(['is_manual', 'state']).where('session_id', '=', session.id).where('speaker_id', '=', 'spk_2').executeTakeFirst())
      .toEqual({ is_manual: 1, state: 'unnamed' })

    // Renamed again, the work follows; null gives "Speaker 2" back.
    expect((await owner.patch(url, { name: 'Dana Lee' })).json()).toMatchObject({ speaker: { label: 'Dana Lee' }, renamedOwners: 1 })
    const back = await owner.patch(url, { name: null })
    expect(back.json()).toMatchObject({ speaker: { label: 'Speaker 2' }, renamedOwners: 1 })
    expect((await viewer.get(`/v1/workobjects/${item.id}`)).json().suggestedOwnerName).toBe('Speaker 2')

    // Work whose suggested owner is the bare speaker id (extracted before the session labelled it) follows too.
    const bare = await capture(owner, session.id, { kind: 'action', title: 'Book the room' })
    await h.database.db.updateTable('work_objects').set({ owner_hint: 'spk_2' }).where('id', '=', bare.id).execute()
    expect((await owner.patch(url, { name: 'Dana Li' })).json().renamedOwners).toBe(2)
    expect((await viewer.get(`/v1/workobjects/${bare.id}`)).json().suggestedOwnerName).toBe('Dana Li')
  })

  it('a name wins over the voice identity the engine had matched: the speaker leaves it and stays manual', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const identityId = await seedVoiceIdentity(h, owner, session.id, 'spk_1')
    const named = await owner.patch(`/v1/sessions/${session.id}/speakers/spk_1`, { name: 'Sam Ortiz' })
    expect(named.statusCode, named.body).toBe(200)
    const transcript = (await owner.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(transcript.speakers).toEqual([expect.objectContaining({ speakerId: 'spk_1', label: 'Sam Ortiz', voice: { state: 'unnamed' } })])
    const voice = await h.database.db.selectFrom('voice_speakers').selectAll().where('session_id', '=', session.id).executeTakeFirstOrThrow()
    expect(voice).toMatchObject({ identity_id: null, is_manual: 1, state: 'unnamed' })
    expect(voice.embedding).not.toBeNull()
    const identity = await owner.get(`/v1/workspace/voice-identities/${identityId}`)
    expect(identity.statusCode).toBe(200)
  })

  it('refuses a viewer, a blank name, a speaker the session never heard and another workspace\'s session', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const session = await startRecording(owner)
    await seedSegments(h, session, [{ text: 'Hello.', speakerId: 'spk_1' }])
    const url = `/v1/sessions/${session.id}/speakers/spk_1`
    expect((await viewer.patch(url, { name: 'Dana' })).statusCode).toBe(403)
    for (const body of [{ name: '   ' }, { name: '' }, { name: 'x'.repeat(121) }, {}, { name: 'Dana', extra: 1 }, { name: 7 }]) {
      const refused = await owner.patch(url, body)
      expect(refused.statusCode, JSON.stringify(body)).toBe(400)
      expect(refused.headers['content-type']).toContain('application/problem+json')
    }
    const unknown = await owner.patch(`/v1/sessions/${session.id}/speakers/spk_9`, { name: 'Dana' })
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'not_found'])
    const stranger = await h.member()
    expect((await stranger.patch(url, { name: 'Dana' })).statusCode).toBe(404)
    expect((await h.anonymous.patch(url, { name: 'Dana' })).statusCode).toBe(401)
  })
})
