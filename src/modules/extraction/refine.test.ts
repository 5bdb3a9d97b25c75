import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { refineSession } from './refine.ts'

const MEETING = [
  { text: 'Okay, let us start with the launch plan.', speakerId: 'spk_1' },
  { text: 'We decided to move the launch to March 3rd.', speakerId: 'spk_2' },
  { text: 'Priya, can you update the pricing page by Friday?', speakerId: 'spk_1' },
  { text: 'Sure, I will do it.', speakerId: 'spk_2' },
]

eachDatabase('work refinement', (h) => {
  it('proposes the meeting\'s actions and decisions when the session ends, citing their segments, once', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    expect((await owner.get(`/v1/sessions/${session.id}/work-refinement`)).json()).toMatchObject({ state: 'idle', segmentsTotal: 4, segmentsProcessed: 0 })
    await owner.post(`/v1/sessions/${session.id}/end`)
    await h.app.deps.jobs.drain()
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().state).toBe('ready')

    const refinement = (await owner.get(`/v1/sessions/${session.id}/work-refinement`)).json()
    expect(refinement).toMatchObject({ state: 'ready', engine: 'extractive', qualityGate: 0.5, segmentsProcessed: 4, segmentsTotal: 4, progress: 1 })
    expect(refinement.itemsVisible).toBeGreaterThanOrEqual(2)

    const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
    const detail = (await owner.get(`/v1/worksets/${sets[0].id}`)).json()
    const objects = detail.workObjects as { kind: string; title: string; sourceSegmentIds: string[]; origin?: string; proposal?: { state: string } }[]
    const action = objects.find((object) => object.kind === 'action')!
    const decision = objects.find((object) => object.kind === 'decision')!
    expect(action.sourceSegmentIds).toContain(ids[2])
    expect(action.title.toLowerCase()).toContain('pricing page')
    expect(objects.find((object) => object.kind === 'decision' && object.sourceSegmentIds.includes(ids[1]!))).toBeDefined()
    expect(decision).toBeDefined()
    expect(objects.every((object) => object.proposal?.state === 'pending')).toBe(true)
    // A voice nobody has named reads as the transcript shows it ("Speaker 2"), never as its id.
    const summaries = (detail.workObjects as { summary?: string }[]).map((object) => object.summary ?? '').join('\n')
    expect(summaries).toContain('Speaker 2: ')
    expect(summaries).not.toMatch(/spk_\d/)
    expect(objects).toHaveLength(refinement.itemsVisible)

    // Running again (a longer transcript, a retry) proposes nothing twice.
    await refineSession(h.app.deps, session.id)
    expect((await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects).toHaveLength(objects.length)
    await Promise.all([refineSession(h.app.deps, session.id), refineSession(h.app.deps, session.id)])
    expect((await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects).toHaveLength(objects.length)

    const events = await h.app.deps.events.readAfter(session.conversationId, 0)
    expect(events.filter((event) => event.type === 'refinement.updated').at(-1)).toMatchObject({ channel: 'work', data: { state: 'ready' } })
    expect(events.some((event) => event.type.startsWith('workobject.'))).toBe(true)
  })

  it('refines while recording as client segments arrive, and lets view members read the status only', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await seedSegments(h, session, MEETING.slice(0, 3))
    await refineSession(h.app.deps, session.id)
    const status = (await owner.get(`/v1/sessions/${session.id}/work-refinement`)).json()
    expect(status).toMatchObject({ state: 'ready', segmentsProcessed: 3 })
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.get(`/v1/sessions/${session.id}/work-refinement`)).statusCode).toBe(200)
    expect((await (await h.member()).get(`/v1/sessions/${session.id}/work-refinement`)).statusCode).toBe(404)
  })

  it('a request proposed before its reply learns from the reply who takes it and by when; a person\'s choice is kept', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const [asked] = await seedSegments(h, session, [{ text: 'Can you send the numbers to the client?', speakerId: 'spk_1' }])
    await refineSession(h.app.deps, session.id)
    const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
    const before = ((await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects as { id: string; kind: string; suggestedOwnerName?: string; dueDate?: string; sourceSegmentIds: string[] }[])
      .find((object) => object.kind === 'action')!
    expect(before.sourceSegmentIds).toEqual([asked])
    expect(before.suggestedOwnerName).toBeUndefined()

    const [reply] = await seedSegments(h, session, [{ text: 'Sure, I will send them by Friday.', speakerId: 'spk_2' }])
    await refineSession(h.app.deps, session.id)
    const after = (await owner.get(`/v1/workobjects/${before.id}`)).json()
    expect(after).toMatchObject({ suggestedOwnerName: 'Speaker 2', sourceSegmentIds: [asked, reply] })
    expect(after.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const activity = (await owner.get(`/v1/workobjects/${before.id}/activity`)).json() as { field?: string }[] | { activity: { field?: string }[] }
    expect(JSON.stringify(activity)).toContain('suggestedOwnerName')

    // Once a person decided the proposal, a later run changes nothing.
    const decided = await owner.patch(`/v1/workobjects/${before.id}/proposal`, { decision: 'accept', expectedRevisionId: after.revisionId })
    expect(decided.statusCode, decided.body).toBe(200)
    await h.database.db.updateTable('work_objects').set({ owner_hint: null }).where('id', '=', before.id).execute()
    await refineSession(h.app.deps, session.id)
    expect((await owner.get(`/v1/workobjects/${before.id}`)).json().suggestedOwnerName).toBeUndefined()
  })

  it('knows the workspace\'s members by name: the owner a request names is suggested as that member', async () => {
    const owner = await h.member()
    const priya = await joinWorkspace(h, owner.workspaceId, 'edit')
    await h.database.db.updateTable('auth_user').set({ name: 'Priya Shah' }).where('id', '=', priya.accountId).execute()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    await refineSession(h.app.deps, session.id)
    const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
    const action = (await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects.find((object: { kind: string }) => object.kind === 'action')
    expect(action).toMatchObject({ suggestedOwnerName: 'Priya Shah', suggestedOwnerId: priya.accountId, sourceSegmentIds: expect.arrayContaining([ids[2]]) })
    expect(action.ownerId).toBeUndefined()
  })
})
