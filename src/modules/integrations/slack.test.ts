// The Slack connector against a mock that validates every call against a hand-written description
// of the Web API methods it uses (test/providers/slack-api.ts, from Slack's reference): a decision
// is recommended as a channel message and posted once; channels come as field options a page at a
// time; a 429 is retried, an `ok: false` refusal is not; connecting checks the token (auth.test).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { startSlackMock, type SlackMock } from '../../../test/providers/slack-mock.ts'
import { capture, workTeam } from '../work/testing.ts'

let slack: SlackMock
const env: Record<string, string> = {}
beforeAll(async () => {
  slack = await startSlackMock()
  env.INTEGRATIONS_SLACK_API_URL = `${slack.url}/api`
})
afterAll(async () => {
  await slack?.close()
})

eachDatabase('Slack', (h) => {
  async function connect(member: Member, apiKey = slack.token) {
    const project = (await member.post('/v1/projects', { name: 'Slack' })).json()
    const connection = await member.post('/v1/integrations/connections/credential', {
      projectId: project.id, service: 'slack', authType: 'api_key', credential: { apiKey }, actionIds: ['slack.post_message'], settings: { channel: 'C00000007' },
    })
    expect(connection.statusCode, connection.body).toBe(200)
    return { projectId: project.id as string, connectionId: connection.json().id as string }
  }

  async function run(member: Member, projectId: string, connectionId: string, input: Record<string, unknown>) {
    const prepared = (await member.post('/v1/integrations/actions/prepare', { projectId, connectionId, actionId: 'slack.post_message', input })).json()
    const token = (await member.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const executed = (await member.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json()
    for (let round = 0; round < 40; round += 1) {
      await h.app.deps.jobs.drain()
      const execution = (await member.get(`/v1/executions/${executed.receipt.executionId}`)).json()
      if (execution.state === 'succeeded' || execution.state === 'failed') return execution
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    throw new Error('the execution did not finish')
  }

  it('posts a recommended decision to the channel once, in the shape Slack\'s description accepts', async () => {
    const team = await workTeam(h, [])
    const { projectId, connectionId } = await connect(team.owner)
    const decision = await capture(team.owner, team.sessionId, { kind: 'decision', title: 'Launch on Friday', targetProjectId: projectId })
    const [recommendation] = (await team.owner.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json().recommendations
    expect(recommendation).toMatchObject({ actionId: 'slack.post_message', connectionId, input: { channel: 'C00000007' } })
    expect(recommendation.input.text).toContain(decision.id)
    const prepared = (await team.owner.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})).json()
    const token = (await team.owner.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const before = slack.calls.length
    slack.rateLimit.set('chat.postMessage', 1)
    const executed = (await team.owner.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json()
    let execution
    for (let round = 0; round < 40 && !['succeeded', 'failed'].includes(execution?.state); round += 1) {
      await h.app.deps.jobs.drain()
      execution = (await team.owner.get(`/v1/executions/${executed.receipt.executionId}`)).json()
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(execution).toMatchObject({ state: 'succeeded', attempts: 2, receipt: { externalId: expect.stringMatching(/^C00000007\//) } })
    const posts = slack.calls.slice(before).filter((call) => call.method === 'chat.postMessage')
    expect(posts.map((call) => [call.ok, call.error])).toEqual([[false, 'ratelimited'], [true, undefined]])
    expect(posts[1]!.params).toEqual({ channel: 'C00000007', text: recommendation.input.text })
  })

  it('fails without a retry when Slack answers ok: false', async () => {
    const team = await workTeam(h, [])
    const { projectId, connectionId } = await connect(team.owner)
    // The token is revoked at Slack after connecting.
    const accepted = slack.token
    slack.token = 'xoxb-another-token'
    try {
      const before = slack.calls.length
      const execution = await run(team.owner, projectId, connectionId, { channel: 'C00000001', text: 'Hello' })
      expect(execution).toMatchObject({ state: 'failed', attempts: 1, error: expect.stringContaining('invalid_auth') })
      expect(slack.calls.slice(before).filter((call) => call.method === 'chat.postMessage')).toHaveLength(1)
    } finally {
      slack.token = accepted
    }
  })

  it('checks the token with auth.test when connecting: one Slack refuses is a 422 credential_refused and nothing is stored', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'Slack checked' })).json()
    const body = (apiKey: string) => ({ projectId: project.id, service: 'slack', authType: 'api_key', credential: { apiKey }, actionIds: ['slack.post_message'] })
    const before = slack.calls.length
    const refused = await team.owner.post('/v1/integrations/connections/credential', body('xoxb-made-up'))
    expect(refused.statusCode, refused.body).toBe(422)
    expect(refused.json()).toMatchObject({ code: 'credential_refused', errors: [{ field: 'credential' }] })
    expect(refused.json().detail).toContain('Slack refused this credential')
    expect(slack.calls.slice(before)).toEqual([{ method: 'auth.test', params: {}, ok: false, error: 'invalid_auth' }])
    expect(await h.database.db.selectFrom('integration_connections').select('id').where('project_id', '=', project.id).execute()).toHaveLength(0)
    const accepted = await team.owner.post('/v1/integrations/connections/credential', body(slack.token))
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json().lastError).toBeUndefined()
    expect(slack.calls.at(-1)).toMatchObject({ method: 'auth.test', ok: true })
  })

  it('lists channels as field options, filtered and a page at a time', async () => {
    const team = await workTeam(h, [])
    const { projectId, connectionId } = await connect(team.owner)
    const ask = (query: string, cursor?: string) => team.owner.post('/v1/integrations/actions/field-options', {
      projectId, connectionId, actionId: 'slack.post_message', field: { name: 'channel' }, query, ...(cursor ? { cursor } : {}),
    })
    const first = (await ask('')).json()
    expect(first.options).toHaveLength(200)
    expect(first.nextCursor).toBeTruthy()
    const second = (await ask('', first.nextCursor)).json()
    expect(second.options).toHaveLength(50)
    expect(second.nextCursor).toBeUndefined()
    expect((await ask('decisions')).json().options).toEqual([{ value: 'C00000007', label: '#launch-decisions' }])
    expect(slack.calls.filter((call) => call.method === 'conversations.list').every((call) => call.ok)).toBe(true)
  })
}, { env })
