import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'

eachDatabase('project suggestions', (h) => {
  it('preselects the project the cited text is about, and the inbox when none is close', async () => {
    const owner = await h.member()
    const mobile = (await owner.post('/v1/projects', { name: 'Mobile app', objective: 'Ship the iOS and Android app', description: 'Push notifications, offline mode, app store release' })).json()
    const billing = (await owner.post('/v1/projects', { name: 'Billing', objective: 'Invoices and payments', description: 'Stripe integration, invoices, refunds' })).json()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, [
      { text: 'The refunds flow in Stripe is still broken for invoices over a thousand euros.' },
      { text: 'Let us grab lunch after this.' },
      { text: '移动应用的推送通知下周上线。' },
    ])
    const ask = (sourceSegmentIds: string[]) => owner.post(`/v1/sessions/${session.id}/workobjects/project-suggestions`, { sourceSegmentIds })
    const billingAnswer = await ask([ids[0]!])
    expect(billingAnswer.statusCode).toBe(200)
    // MeetingWorkProjectSuggestion[] (interface): an array, the preselected item marked
    expect(Array.isArray(billingAnswer.json())).toBe(true)
    expect(billingAnswer.json()[0]).toMatchObject({ route: 'project', projectId: billing.id, projectName: 'Billing', preselected: true, preselectedProjectId: billing.id })
    expect(billingAnswer.json().at(-1)).toEqual({ route: 'inbox', preselected: false, preselectedProjectId: billing.id })
    const lunch = (await ask([ids[1]!])).json()
    expect(lunch.filter((item: { preselected: boolean }) => item.preselected)).toEqual([{ route: 'inbox', preselected: true }])
    expect(lunch.at(-1)).toEqual({ route: 'inbox', preselected: true })
    expect(mobile.id).toBeTruthy()

    const unknown = await ask(['seg_nope'])
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors[0].field).toBe('sourceSegmentIds')
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.post(`/v1/sessions/${session.id}/workobjects/project-suggestions`, { sourceSegmentIds: [ids[0]] })).statusCode).toBe(403)
    expect((await (await h.member()).post(`/v1/sessions/${session.id}/workobjects/project-suggestions`, { sourceSegmentIds: [ids[0]] })).statusCode).toBe(404)
  })
})
