// Recommendations follow their work object: a change to the object redrafts them after commit
// (port workObjectChanged → job integrations.redraft), nothing leaves Confer at that step, and an
// action prepared from the outdated draft is superseded (execute refuses it, nothing sent). A
// successful execution writes its receipt onto the work object (externalRefs and activity).
// Through HTTP on SQLite and PostgreSQL, with a Standard Webhooks receiver as the provider.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/providers/webhook-receiver.ts'
import { capture, eventsOf, workTeam } from '../work/testing.ts'

let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})

afterAll(async () => {
  await receiver?.close()
})

eachDatabase('recommendations redrafted; receipts on the work object', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
  })

  /** a decision in a project with a webhook connection, and its drafted recommendation */
  async function decisionWithRecommendation(path: string, title: string) {
    const project = (await team.owner.post('/v1/projects', { name: `Decisions ${path}` })).json()
    const connected = await team.editor.post('/v1/integrations/connections/credential', {
      projectId: project.id, service: 'webhook', authType: 'custom_credential', credential: { signingSecret: receiver.signingSecret },
      actionIds: ['webhook.send'], settings: { url: `${receiver.url}${path}` },
    })
    expect(connected.statusCode, connected.body).toBe(200)
    const decision = await capture(team.owner, team.sessionId, { kind: 'decision', title, targetProjectId: project.id })
    const drafted = (await team.editor.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json()
    expect(drafted.recommendations).toHaveLength(1)
    return { decision, recommendation: drafted.recommendations[0] }
  }

  const recommendationsOf = async (workSetId: string, workObjectId: string) => (await team.viewer.get(`/v1/worksets/${workSetId}`)).json().actions
    .filter((action: { workObjectId: string }) => action.workObjectId === workObjectId)
  const edit = (decision: { id: string; revisionHash: string }, title: string) =>
    team.owner.patch(`/v1/workobjects/${decision.id}`, { expectedRevisionHash: decision.revisionHash, content: { title } })
  const delivered = (path: string) => receiver.deliveries.filter((delivery) => delivery.path === path)

  it('redrafts the recommendations of a work object when it changes, without a refresh call and sending nothing', async () => {
    const path = `/redraft-${h.kind}`
    const { decision, recommendation } = await decisionWithRecommendation(path, 'We launch on Friday')
    const seqBefore = (await eventsOf(h, decision.conversationId)).at(-1)!.seq
    const edited = await edit(decision, 'We launch on Monday')
    expect(edited.statusCode, edited.body).toBe(200)
    await h.app.deps.jobs.drain()
    const [redrafted] = await recommendationsOf(decision.workSetId, decision.id)
    expect(redrafted).toMatchObject({
      id: recommendation.id, state: 'recommended', recommendationState: 'open', workObjectRevisionHash: edited.json().revisionHash,
      input: { data: expect.objectContaining({ title: 'We launch on Monday' }) },
    })
    const events = await eventsOf(h, decision.conversationId, seqBefore)
    expect(events.filter((event) => event.type === 'action.recommendations_updated').map((event) => event.data)).toEqual([expect.objectContaining({ drafted: 0, updated: 1 })])
    expect(delivered(path)).toHaveLength(0)

    // A change that does not alter the draft (its stage) changes nothing.
    const moved = await team.owner.patch(`/v1/workobjects/${decision.id}/stage`, { fromStage: 'captured', toStage: 'structured' })
    expect(moved.statusCode, moved.body).toBe(200)
    await h.app.deps.jobs.drain()
    const [same] = await recommendationsOf(decision.workSetId, decision.id)
    expect(same.updatedAt).toBe(redrafted.updatedAt)
  })

  it('supersedes an approved action prepared from an outdated draft: execute refuses it and nothing is sent', async () => {
    const path = `/superseded-${h.kind}`
    const { decision, recommendation } = await decisionWithRecommendation(path, 'Budget is frozen')
    const prepared = (await team.editor.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})).json()
    const token = (await team.editor.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    expect(token).toEqual(expect.any(String))

    // A stage move leaves the prepared draft as it is.
    await team.owner.patch(`/v1/workobjects/${decision.id}/stage`, { fromStage: 'captured', toStage: 'structured' })
    await h.app.deps.jobs.drain()
    expect((await recommendationsOf(decision.workSetId, decision.id)).find((action: { id: string }) => action.id === prepared.id).state).toBe('approved')

    // The title changes: the approved action is superseded, the recommendation is open again with the new draft.
    const edited = await edit(decision, 'Budget is frozen until March')
    expect(edited.statusCode, edited.body).toBe(200)
    await h.app.deps.jobs.drain()
    const actions = await recommendationsOf(decision.workSetId, decision.id)
    expect(actions).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: recommendation.id, state: 'recommended', input: { type: 'confer.decision', data: expect.objectContaining({ title: 'Budget is frozen until March' }) } }),
      expect.objectContaining({ id: prepared.id, state: 'superseded' }),
    ]))
    const refused = await team.editor.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('action_superseded')
    expect((await team.editor.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().code).toBe('action_superseded')
    await h.app.deps.jobs.drain()
    expect(delivered(path)).toHaveLength(0)

    // The new draft is prepared, approved and executed: what arrives is the new content, once,
    // and its receipt is on the work object.
    const again = await team.editor.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})
    expect(again.statusCode, again.body).toBe(200)
    const approval = (await team.editor.post(`/v1/actions/${again.json().id}/approve`, { expectedPayloadHash: again.json().payloadHash })).json()
    const executed = await team.editor.post(`/v1/actions/${again.json().id}/execute`, { approvalToken: approval.approvalToken })
    expect(executed.statusCode, executed.body).toBe(200)
    await h.app.deps.jobs.drain()
    expect(delivered(path).map((delivery) => [delivery.status, delivery.payload?.data.title])).toEqual([[200, 'Budget is frozen until March']])

    const object = (await team.viewer.get(`/v1/workobjects/${decision.id}`)).json()
    expect(object.externalRefs).toEqual([{
      provider: 'webhook', externalId: again.json().id, summary: expect.stringContaining('Delivered'), actionId: again.json().id,
      executionId: executed.json().receipt.executionId, at: expect.any(String),
    }])
    const activity = (await team.viewer.get(`/v1/workobjects/${decision.id}/activity`)).json()
    expect(activity).toEqual(expect.arrayContaining([expect.objectContaining({ verb: 'external.created', field: 'externalRefs', newValue: again.json().id })]))
    expect((await team.stranger.get(`/v1/workobjects/${decision.id}`)).statusCode).toBe(404)
  })
})
