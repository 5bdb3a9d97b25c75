// A recommended action whose sending failed is prepared again: the recommendation stays `prepared`
// (refreshing keeps an action that ran as it was), so before, a webhook sent while its receiver was down
// could never be sent again. One still waiting or already delivered is not prepared twice.
// Through HTTP on SQLite and PostgreSQL, with a Standard Webhooks receiver as the provider.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/providers/webhook-receiver.ts'
import { capture, workTeam } from '../work/testing.ts'

let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})

afterAll(async () => {
  await receiver?.close()
})

eachDatabase('a failed sending prepared again', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
  })

  /** A decision in a project whose webhook goes to `url`, and its drafted recommendation. */
  async function recommended(url: string, title: string) {
    const project = (await team.owner.post('/v1/projects', { name: title })).json()
    const connected = await team.editor.post('/v1/integrations/connections/credential', {
      projectId: project.id, service: 'webhook', authType: 'custom_credential', credential: { signingSecret: receiver.signingSecret },
      actionIds: ['webhook.send'], settings: { url },
    })
    expect(connected.statusCode, connected.body).toBe(200)
    const decision = await capture(team.owner, team.sessionId, { kind: 'decision', title, targetProjectId: project.id })
    const drafted = (await team.editor.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json()
    expect(drafted.recommendations).toHaveLength(1)
    return { decision, recommendationId: drafted.recommendations[0].id as string }
  }

  const recommendationOf = async (recommendationId: string) => {
    const [recommendation] = await h.database.db.selectFrom('action_recommendations').select(['work_set_id as workSetId']).where('id', '=', recommendationId).execute()
    return recommendation!
  }

  /** Prepares, approves and executes the recommendation; answers the execution once its job ran. */
  async function send(recommendationId: string) {
    const prepared = await team.editor.post(`/v1/action-recommendations/${recommendationId}/prepare`, {})
    expect(prepared.statusCode, prepared.body).toBe(200)
    const action = prepared.json()
    const approval = (await team.editor.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).json()
    const executed = await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken: approval.approvalToken })
    expect(executed.statusCode, executed.body).toBe(200)
    await h.app.deps.jobs.drain()
    return (await team.editor.get(`/v1/executions/${executed.json().receipt.executionId}`)).json()
  }

  it('prepares a recommendation again once its sending failed, and sends it', async () => {
    // A port fetch refuses to call fails the execution at once (no retries over minutes).
    const { recommendationId } = await recommended('http://127.0.0.1:6000/hook', `We ship on Friday (${h.kind})`)
    expect((await send(recommendationId)).state).toBe('failed')
    const refreshed = (await team.editor.post(`/v1/work-sets/${(await recommendationOf(recommendationId)).workSetId}/action-recommendations/refresh`, {})).json()
    expect(refreshed.recommendations.find((item: { id: string }) => item.id === recommendationId)).toMatchObject({ state: 'prepared' })

    // The same recommendation is prepared, approved and sent again (it fails again: the port is still refused).
    const retried = await send(recommendationId)
    expect(retried.state).toBe('failed')
    const actions = (await team.viewer.get(`/v1/worksets/${(await recommendationOf(recommendationId)).workSetId}`)).json().actions
      .filter((action: { recommendationId?: string; state: string }) => action.recommendationId === recommendationId && action.state !== 'recommended')
    expect(actions.map((action: { state: string }) => action.state)).toEqual(['failed', 'failed'])

    const path = `/retry-${h.kind}`
    const other = await recommended(`${receiver.url}${path}`, `We ship on Monday (${h.kind})`)
    expect((await send(other.recommendationId)).state).toBe('succeeded')
    expect(receiver.deliveries.filter((delivery) => delivery.path === path)).toHaveLength(1)

    // Delivered, or prepared and waiting: not prepared a second time.
    const again = await team.editor.post(`/v1/action-recommendations/${other.recommendationId}/prepare`, {})
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'action_state_conflict', state: 'prepared' })
    const prepared = await team.editor.post(`/v1/action-recommendations/${recommendationId}/prepare`, {})
    expect(prepared.statusCode, prepared.body).toBe(200)
    const waiting = await team.editor.post(`/v1/action-recommendations/${recommendationId}/prepare`, {})
    expect(waiting.statusCode).toBe(409)
  })

  it('prepares a recommendation once when two requests prepare it at the same time', async () => {
    const { recommendationId } = await recommended('http://127.0.0.1:6000/hook', `We close on Sunday (${h.kind})`)
    const both = await Promise.all([1, 2, 3].map(() => team.editor.post(`/v1/action-recommendations/${recommendationId}/prepare`, {})))
    expect(both.map((reply) => reply.statusCode).sort()).toEqual([200, 409, 409])
    for (const reply of both.filter((each) => each.statusCode === 409)) expect(reply.json()).toMatchObject({ code: 'action_state_conflict', state: 'prepared' })
    const rows = await h.database.db.selectFrom('external_actions').select('id').where('recommendation_id', '=', recommendationId).execute()
    expect(rows).toHaveLength(1)
  })
})
