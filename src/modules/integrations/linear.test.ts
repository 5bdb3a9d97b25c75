// The Linear connector (@linear/sdk 88.3.0) against a validating graphql-js mock serving a
// hand-written description of the part of Linear's GraphQL API it uses
// (test/providers/linear-schema.ts): an action item becomes one issueCreate the schema accepts,
// with an id derived from the action; teams come as field options; issues are searched for context;
// connecting checks the key (a viewer query).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startLinearMock, type LinearMock } from '../../../test/providers/linear-mock.ts'
import { capture, workTeam } from '../work/testing.ts'
import { issueIdFor, linearConnector } from './connectors/linear.ts'

let linear: LinearMock
const env: Record<string, string> = {}
beforeAll(async () => {
  linear = await startLinearMock()
  env.INTEGRATIONS_LINEAR_API_URL = linear.url
})
afterAll(async () => {
  await linear?.close()
})

const TEAM = '5b0f2b9e-4c7e-4f55-9a59-0a2c1a0e6d11'

eachDatabase('Linear', (h) => {
  it('checks the key with a viewer query when connecting: one Linear refuses is a 422 credential_refused and nothing is stored', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'Linear checked' })).json()
    const body = (apiKey: string) => ({ projectId: project.id, service: 'linear', authType: 'api_key', credential: { apiKey }, actionIds: ['linear.create_issue'] })
    linear.acceptedKey = 'lin_api_testkey'
    try {
      const before = linear.operations.length
      const refused = await team.owner.post('/v1/integrations/connections/credential', body('lin_api_made_up'))
      expect(refused.statusCode, refused.body).toBe(422)
      expect(refused.json()).toMatchObject({ code: 'credential_refused', errors: [{ field: 'credential' }] })
      expect(refused.json().detail).toContain('Linear refused this credential')
      expect(await h.database.db.selectFrom('integration_connections').select('id').where('project_id', '=', project.id).execute()).toHaveLength(0)
      const accepted = await team.owner.post('/v1/integrations/connections/credential', body('lin_api_testkey'))
      expect(accepted.statusCode, accepted.body).toBe(200)
      expect(accepted.json().lastError).toBeUndefined()
      const checks = linear.operations.slice(before)
      expect(checks.map((operation) => [operation.authorization, operation.errors])).toEqual([['lin_api_made_up', ['Authentication required, not authenticated']], ['lin_api_testkey', []]])
      expect(checks[1]!.query).toContain('viewer { id }')
    } finally {
      linear.acceptedKey = undefined
    }
  })

  it('turns an action item into one Linear issue the schema accepts', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'Linear' })).json()
    const connection = await team.owner.post('/v1/integrations/connections/credential', {
      projectId: project.id, service: 'linear', authType: 'api_key', credential: { apiKey: 'lin_api_testkey' }, actionIds: ['linear.create_issue'], settings: { teamId: TEAM },
    })
    expect(connection.statusCode, connection.body).toBe(200)
    const item = await capture(team.owner, team.sessionId, { kind: 'action', title: 'Migrate the billing jobs', summary: 'Before the freeze.', targetProjectId: project.id })
    const [recommendation] = (await team.owner.post(`/v1/work-objects/${item.id}/action-recommendations/refresh`, {})).json().recommendations
    expect(recommendation).toMatchObject({ actionId: 'linear.create_issue', input: { teamId: TEAM, title: 'Migrate the billing jobs' } })
    const prepared = (await team.owner.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})).json()
    const token = (await team.owner.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const before = linear.operations.length
    const executed = (await team.owner.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json()
    await h.app.deps.jobs.drain()
    const execution = (await team.owner.get(`/v1/executions/${executed.receipt.executionId}`)).json()
    expect(execution).toMatchObject({ state: 'succeeded', receipt: { externalId: expect.stringMatching(/^ENG-\d+$/), url: expect.stringContaining('https://linear.app/') } })
    const sent = linear.operations.slice(before)
    expect(sent.every((operation) => operation.errors.length === 0)).toBe(true)
    const creates = sent.filter((operation) => /issueCreate/.test(operation.query))
    expect(creates).toHaveLength(1)
    expect(creates[0]!.variables.input).toMatchObject({ teamId: TEAM, title: 'Migrate the billing jobs', id: issueIdFor(prepared.id) })
    expect(creates[0]!.authorization).toBe('lin_api_testkey')

    const teams = await team.owner.post('/v1/integrations/actions/field-options', { projectId: project.id, connectionId: connection.json().id, actionId: 'linear.create_issue', field: { name: 'teamId' } })
    expect(teams.statusCode, teams.body).toBe(200)
    expect(teams.json().options.length).toBeGreaterThan(0)

    const found = await h.app.deps.ports.externalContext!({ workspaceId: team.owner.workspaceId, projectId: project.id, query: 'billing', limit: 3 })
    expect(found.connectionIds).toEqual([connection.json().id])
    expect(found.items[0]).toMatchObject({ provider: 'linear', kind: 'issue' })
    expect(linear.operations.slice(before).every((operation) => operation.errors.length === 0)).toBe(true)
  })

  it('finds the issue a started call made by its derived id (reconcile), and the schema refuses a malformed call', async () => {
    const context = { connectionId: 'con_x', credential: { apiKey: 'lin_api_testkey' }, settings: {}, config: h.app.deps.config, mailer: h.app.deps.mailer }
    const found = await linearConnector.reconcile!(context, 'linear.create_issue', {}, { actionRowId: 'act_01JAAAAAAAAAAAAAAAAAAAAAAA', executionId: 'exe_x' })
    expect(found).toMatchObject({ externalId: expect.stringMatching(/^ENG-/), issueId: expect.any(String) })
    expect(linear.operations.at(-1)!.variables).toEqual({ id: issueIdFor('act_01JAAAAAAAAAAAAAAAAAAAAAAA') })
    expect(issueIdFor('act_x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    // Without a teamId the schema refuses the mutation, and the connector reports a refusal, not a retry.
    await expect(linearConnector.execute(context, 'linear.create_issue', { title: 'No team' }, { actionRowId: 'act_y', executionId: 'exe_y' }))
      .rejects.toMatchObject({ retryable: false })
    expect(linear.operations.at(-1)!.errors.join(' ')).toMatch(/teamId/)
  })
}, { env })
