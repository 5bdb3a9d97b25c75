import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { flagStaleWorkSets, refineSession } from './refine.ts'

const MEETING = [
  { text: 'Okay, let us start with the launch plan.', speakerId: 'spk_1' },
  { text: 'We decided to move the launch to March 3rd.', speakerId: 'spk_2' },
  { text: 'Priya, can you update the pricing page by Friday?', speakerId: 'spk_1' },
  { text: 'Sure, I will do it.', speakerId: 'spk_2' },
]

type Detail = { workSet: { needsRebuild: boolean }; workObjects: { id: string; kind: string; currentRevisionId?: string; proposal?: { state: string; revisionId?: string } }[] }

eachDatabase('rebuilding a work set under a new quality gate', (h) => {
  it('proposes what a looser gate shows, withdraws untouched proposals a stricter one hides, and keeps accepted work', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await seedSegments(h, session, MEETING)
    h.app.deps.config.extractionQualityGate = 0.9
    await refineSession(h.app.deps, session.id)
    const setId = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets[0].id
    const detail = async () => (await owner.get(`/v1/worksets/${setId}`)).json() as Detail
    const strict = await detail()
    expect(strict.workObjects.map((object) => object.kind)).toEqual(['action'])
    expect(strict.workSet.needsRebuild).toBe(false)

    // The operator loosens the gate and restarts: the set is flagged, the rebuild proposes the rest.
    h.app.deps.config.extractionQualityGate = 0.5
    await flagStaleWorkSets(h.app.deps)
    expect((await detail()).workSet.needsRebuild).toBe(true)
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.post(`/v1/sessions/${session.id}/rebuild-workset`)).statusCode).toBe(403)
    const loose = await owner.post(`/v1/sessions/${session.id}/rebuild-workset`)
    expect(loose.statusCode).toBe(200)
    // (Priya's "Sure, I will do it." joins her action: the decision is the one item the gate hid.)
    expect(loose.json()).toMatchObject({ proposed: 1, withdrawn: 0 })
    const rebuilt = await detail()
    expect(rebuilt.workSet.needsRebuild).toBe(false)
    expect(rebuilt.workObjects).toHaveLength(2)

    // A person accepts the action; a stricter gate then withdraws only the untouched proposals.
    const action = rebuilt.workObjects.find((object) => object.kind === 'action')!
    const accepted = await owner.patch(`/v1/workobjects/${action.id}/proposal`, { decision: 'accept', expectedRevisionId: action.proposal!.revisionId ?? action.currentRevisionId })
    expect(accepted.statusCode, accepted.body).toBe(200)
    h.app.deps.config.extractionQualityGate = 0.95
    const stricter = (await owner.post(`/v1/sessions/${session.id}/rebuild-workset`)).json()
    expect(stricter).toMatchObject({ proposed: 0, withdrawn: 1 })
    const after = await detail()
    expect(after.workObjects.map((object) => [object.id, object.proposal?.state])).toEqual([[action.id, 'accepted']])
    expect((await owner.post(`/v1/sessions/${session.id}/rebuild-workset`)).json()).toMatchObject({ proposed: 0, withdrawn: 0 })
    expect((await (await h.member()).post(`/v1/sessions/${session.id}/rebuild-workset`)).statusCode).toBe(404)
    h.app.deps.config.extractionQualityGate = 0.5
  })
})
