// Listing and revoking connections (GET/DELETE /v1/integrations/connections), and the execution's
// retry schedule honouring a provider's Retry-After — through HTTP on SQLite and PostgreSQL, with
// a Standard Webhooks receiver standing in for the provider.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/providers/webhook-receiver.ts'
import { workTeam } from '../work/testing.ts'
import { MAX_RETRY_AFTER_MS } from './run.ts'

let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})

afterAll(async () => {
  await receiver?.close()
})

eachDatabase('connections: list and revoke; Retry-After', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
  })

  async function connect(member: Member, path: string, projectId?: string) {
    const project = projectId ?? (await member.post('/v1/projects', { name: `Hooks ${path}` })).json().id as string
    const answer = await member.post('/v1/integrations/connections/credential', {
      projectId: project, service: 'webhook', authType: 'custom_credential', credential: { signingSecret: receiver.signingSecret },
      actionIds: ['webhook.send'], settings: { url: `${receiver.url}${path}` },
    })
    expect(answer.statusCode, answer.body).toBe(200)
    return { projectId: project, connection: answer.json() }
  }

  async function prepare(member: Member, projectId: string, connectionId: string, approve: boolean) {
    const prepared = await member.post('/v1/integrations/actions/prepare', { projectId, connectionId, actionId: 'webhook.send', input: { type: 'confer.test', data: { n: 1 } } })
    expect(prepared.statusCode, prepared.body).toBe(200)
    if (!approve) return { action: prepared.json(), token: undefined }
    const approval = await member.post(`/v1/actions/${prepared.json().id}/approve`, { expectedPayloadHash: prepared.json().payloadHash })
    expect(approval.statusCode, approval.body).toBe(200)
    return { action: prepared.json(), token: approval.json().approvalToken as string }
  }

  const delivered = (path: string) => receiver.deliveries.filter((delivery) => delivery.path === path)
  const executionJob = (executionId: string) => h.database.db.selectFrom('jobs').selectAll().where('name', '=', 'integrations.execute').where('dedupe_key', '=', executionId).executeTakeFirstOrThrow()

  // ---- list ----

  it('lists the workspace\'s connections without secrets, per project on request, and only the caller\'s workspace', async () => {
    const first = await connect(team.editor, `/list-a-${h.kind}`)
    const second = await connect(team.editor, `/list-b-${h.kind}`)
    const all = await team.viewer.get('/v1/integrations/connections')
    expect(all.statusCode, all.body).toBe(200)
    const ids = all.json().map((connection: { id: string }) => connection.id)
    expect(ids).toEqual(expect.arrayContaining([first.connection.id, second.connection.id]))
    expect(ids.indexOf(second.connection.id)).toBeLessThan(ids.indexOf(first.connection.id))
    expect(all.json().find((connection: { id: string }) => connection.id === first.connection.id)).toMatchObject({
      projectId: first.projectId, service: 'webhook', status: 'active', hasCredential: true, connectionAlias: first.connection.connectionAlias,
    })
    expect(all.body).not.toContain(receiver.signingSecret.slice(6))
    const one = (await team.viewer.get(`/v1/integrations/connections?projectId=${first.projectId}`)).json()
    expect(one.map((connection: { id: string }) => connection.id)).toEqual([first.connection.id])

    // Another workspace sees none of them, and cannot name the project.
    const theirs = await team.stranger.get('/v1/integrations/connections')
    expect(theirs.statusCode).toBe(200)
    expect(theirs.json().some((connection: { id: string }) => ids.includes(connection.id))).toBe(false)
    expect((await team.stranger.get(`/v1/integrations/connections?projectId=${first.projectId}`)).statusCode).toBe(404)
    expect((await h.anonymous.get('/v1/integrations/connections')).statusCode).toBe(401)
    const bad = await team.viewer.get('/v1/integrations/connections?includeRevoked=maybe')
    expect(bad.statusCode).toBe(400)
    expect(bad.headers['content-type']).toContain('application/problem+json')
  })

  // ---- revoke ----

  it('revokes like connecting: edit members of the workspace only', async () => {
    const { connection } = await connect(team.editor, `/guard-${h.kind}`)
    expect((await h.anonymous.delete(`/v1/integrations/connections/${connection.id}`)).statusCode).toBe(401)
    expect((await team.viewer.delete(`/v1/integrations/connections/${connection.id}`)).statusCode).toBe(403)
    const foreign = await team.stranger.delete(`/v1/integrations/connections/${connection.id}`)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('not_found')
    expect((await team.editor.delete(`/v1/integrations/connections/${'x'.repeat(81)}`)).statusCode).toBe(400)
    const listed = (await team.editor.get('/v1/integrations/connections')).json()
    expect(listed.find((row: { id: string }) => row.id === connection.id)?.status).toBe('active')
  })

  it('revoking deletes the credential; approvals and queued executions through it are refused and send nothing', async () => {
    const path = `/revoked-${h.kind}`
    const { projectId, connection } = await connect(team.editor, path)
    const approved = await prepare(team.editor, projectId, connection.id, true)
    const queued = await prepare(team.editor, projectId, connection.id, true)
    const executed = await team.editor.post(`/v1/actions/${queued.action.id}/execute`, { approvalToken: queued.token })
    expect(executed.statusCode, executed.body).toBe(200)
    const unapproved = await prepare(team.editor, projectId, connection.id, false)

    const revoked = await team.editor.delete(`/v1/integrations/connections/${connection.id}`)
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json()).toMatchObject({ id: connection.id, status: 'revoked', hasCredential: false })
    const row = await h.database.db.selectFrom('integration_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow()
    expect([row.secret_ciphertext, row.secret_nonce, row.secret_key_version]).toEqual([null, null, null])

    const execute = await team.editor.post(`/v1/actions/${approved.action.id}/execute`, { approvalToken: approved.token })
    expect(execute.statusCode).toBe(409)
    expect(execute.json().code).toBe('connection_revoked')
    const approve = await team.editor.post(`/v1/actions/${unapproved.action.id}/approve`, { expectedPayloadHash: unapproved.action.payloadHash })
    expect(approve.json().code).toBe('connection_revoked')
    const again = await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'webhook.send', input: { type: 'confer.test', data: {} } })
    expect(again.json().code).toBe('connection_revoked')

    // The execution queued before the revocation fails without calling the receiver.
    await h.app.deps.jobs.drain()
    const execution = (await team.editor.get(`/v1/executions/${executed.json().receipt.executionId}`)).json()
    expect(execution).toMatchObject({ state: 'failed', error: expect.stringContaining('revoked') })
    expect(delivered(path)).toHaveLength(0)

    // Left out of the list and the agent tools; shown with includeRevoked; revoking again answers it.
    expect((await team.editor.get('/v1/integrations/connections')).json().some((one: { id: string }) => one.id === connection.id)).toBe(false)
    const withRevoked = (await team.editor.get('/v1/integrations/connections?includeRevoked=true')).json()
    expect(withRevoked.find((one: { id: string }) => one.id === connection.id)).toMatchObject({ status: 'revoked' })
    expect((await team.editor.get('/v1/agent/external-tools')).json().tools.some((tool: { connectionId: string }) => tool.connectionId === connection.id)).toBe(false)
    const twice = await team.owner.delete(`/v1/integrations/connections/${connection.id}`)
    expect(twice.statusCode).toBe(200)
    expect(twice.json().updatedAt).toBe(revoked.json().updatedAt)
  })

  it('concurrent revocations both answer the revoked connection; an execute racing a revocation sends nothing', async () => {
    const path = `/race-${h.kind}`
    const { projectId, connection } = await connect(team.editor, path)
    const approved = await prepare(team.editor, projectId, connection.id, true)
    const [execute, first, second] = await Promise.all([
      team.editor.post(`/v1/actions/${approved.action.id}/execute`, { approvalToken: approved.token }),
      team.editor.delete(`/v1/integrations/connections/${connection.id}`),
      team.owner.delete(`/v1/integrations/connections/${connection.id}`),
    ])
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    expect([first.json().status, second.json().status]).toEqual(['revoked', 'revoked'])
    expect([200, 409]).toContain(execute.statusCode)
    await h.app.deps.jobs.drain()
    expect(delivered(path)).toHaveLength(0)
    if (execute.statusCode === 200) {
      expect((await team.editor.get(`/v1/executions/${execute.json().receipt.executionId}`)).json().state).toBe('failed')
    } else {
      expect(execute.json().code).toBe('connection_revoked')
    }
  })

  // ---- Retry-After ----

  async function executeOnce(path: string) {
    const { projectId, connection } = await connect(team.editor, path)
    const { action, token } = await prepare(team.editor, projectId, connection.id, true)
    const executed = await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken: token })
    expect(executed.statusCode, executed.body).toBe(200)
    await h.app.deps.jobs.drain()
    return { action, executionId: executed.json().receipt.executionId as string }
  }

  async function finished(executionId: string) {
    for (let round = 0; round < 60; round += 1) {
      await h.app.deps.jobs.drain()
      const execution = (await team.editor.get(`/v1/executions/${executionId}`)).json()
      if (execution.state === 'succeeded' || execution.state === 'failed') return execution
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error('the execution did not finish')
  }

  it('waits out a 429\'s Retry-After in seconds before the next attempt', async () => {
    const path = `/slow-down-${h.kind}`
    receiver.script.set(path, [{ status: 429, headers: { 'retry-after': '2' } }])
    const { executionId } = await executeOnce(path)
    const job = await executionJob(executionId)
    expect(job.state).toBe('queued')
    expect(new Date(job.run_at).getTime() - new Date(job.updated_at).getTime()).toBeGreaterThanOrEqual(2000)
    expect(new Date(job.run_at).getTime() - new Date(job.updated_at).getTime()).toBeLessThan(2000 + 1000)
    const execution = await finished(executionId)
    expect(execution).toMatchObject({ state: 'succeeded', attempts: 2 })
    const [refused, accepted] = delivered(path)
    expect([refused!.status, accepted!.status]).toEqual([429, 200])
    expect(accepted!.at - refused!.at).toBeGreaterThanOrEqual(1900)
    expect(execution.history.find((entry: { state: string }) => entry.state === 'retrying').detail).toContain('Retry-After')
  })

  it('reads Retry-After as an HTTP date on a 503, and never waits longer than the bound', async () => {
    const datePath = `/dated-${h.kind}`
    receiver.script.set(datePath, [{ status: 503, headers: { 'retry-after': new Date(Date.now() + 4000).toUTCString() } }])
    const dated = await executeOnce(datePath)
    const datedJob = await executionJob(dated.executionId)
    const wait = new Date(datedJob.run_at).getTime() - new Date(datedJob.updated_at).getTime()
    expect(wait).toBeGreaterThan(1500)
    expect(wait).toBeLessThanOrEqual(4000)

    const farPath = `/far-${h.kind}`
    receiver.script.set(farPath, [{ status: 429, headers: { 'retry-after': String(24 * 3600) } }])
    const far = await executeOnce(farPath)
    const farJob = await executionJob(far.executionId)
    expect(new Date(farJob.run_at).getTime() - new Date(farJob.updated_at).getTime()).toBe(MAX_RETRY_AFTER_MS)
    expect(delivered(farPath)).toHaveLength(1)
  })

  it('does not retry a 4xx other than 429, Retry-After or not', async () => {
    const path = `/refused-${h.kind}`
    receiver.script.set(path, [{ status: 400, headers: { 'retry-after': '1' } }])
    const { executionId } = await executeOnce(path)
    const execution = (await team.editor.get(`/v1/executions/${executionId}`)).json()
    expect(execution).toMatchObject({ state: 'failed', attempts: 1 })
    expect(delivered(path)).toHaveLength(1)
  })
})
