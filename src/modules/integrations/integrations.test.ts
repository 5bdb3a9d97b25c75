// Connections, access, prepare → approve → execute against GitHub's published REST description
// (validating Prism mock), recommendations and the work set detail, agent tools, field options,
// external context — through HTTP on SQLite and PostgreSQL.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startGithubMock, type GithubMock } from '../../../test/providers/github-mock.ts'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { capture, eventsOf, workTeam } from '../work/testing.ts'
import { githubConnection, githubIssueInput } from './testing.ts'

let github: GithubMock
let tokenServer: Server
const tokenRequests: URLSearchParams[] = []
const env: Record<string, string> = {}

beforeAll(async () => {
  github = await startGithubMock()
  // A token endpoint that checks PKCE (S256) like an authorization server does.
  const issued = new Map<string, string>()
  tokenServer = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => { body += chunk.toString() })
    request.on('end', () => {
      const form = new URLSearchParams(body)
      tokenRequests.push(form)
      const answer = (status: number, json: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json))
      if (form.get('grant_type') === 'authorization_code') {
        const challenge = issued.get(form.get('code') ?? '')
        const verifier = form.get('code_verifier') ?? ''
        if (!challenge || createHash('sha256').update(verifier).digest('base64url') !== challenge) return answer(400, { error: 'invalid_grant' })
        issued.delete(form.get('code')!)
        return answer(200, { access_token: 'gho_first', refresh_token: 'ghr_first', expires_in: 3600, token_type: 'bearer' })
      }
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'ghr_first') {
        return answer(200, { access_token: 'gho_second', refresh_token: 'ghr_second', expires_in: 3600, token_type: 'bearer' })
      }
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'ghr_second') {
        return answer(200, { access_token: 'gho_third', refresh_token: 'ghr_third', expires_in: 3600, token_type: 'bearer' })
      }
      if (form.get('grant_type') === 'issue') {
        issued.set(form.get('code')!, form.get('challenge')!)
        return answer(200, {})
      }
      return answer(400, { error: 'invalid_request' })
    })
  })
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', () => resolve()))
  const tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`
  Object.assign(env, {
    INTEGRATIONS_GITHUB_API_URL: github.url, INTEGRATIONS_VERIFY_TIMEOUT_MS: '1000',
    INTEGRATIONS_GITHUB_CLIENT_ID: 'confer-test', INTEGRATIONS_GITHUB_CLIENT_SECRET: 'client-secret',
    INTEGRATIONS_GITHUB_AUTHORIZE_URL: 'http://127.0.0.1:9/authorize', INTEGRATIONS_GITHUB_TOKEN_URL: tokenUrl,
  })
})

afterAll(async () => {
  await github?.close()
  await new Promise((resolve) => tokenServer?.close(resolve))
})

const creates = () => github.seen.filter((seen) => seen.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/issues$/.test(seen.path))

eachDatabase('integrations', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
  })

  // ---- connections ----

  it('connects GitHub with an api key that is stored encrypted and never returned', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    expect(connection).toMatchObject({ projectId, service: 'github', authType: 'api_key', status: 'active', hasCredential: true, actionIds: ['github.create_issue'] })
    expect(connection.connectionAlias).toMatch(/^github-[0-9a-f]{8}$/)
    expect(JSON.stringify(connection)).not.toContain('ghp_test_token_value')
    const row = await h.database.db.selectFrom('integration_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow()
    expect(row.secret_ciphertext).not.toContain('ghp_test')
    expect(Buffer.from(row.secret_ciphertext!, 'base64').toString('latin1')).not.toContain('ghp_test')
    expect(Buffer.from(row.secret_nonce!, 'base64')).toHaveLength(12)
    expect(row.secret_key_version).toBe(0)
    const second = await githubConnection(team.editor, { projectId })
    const other = await h.database.db.selectFrom('integration_connections').select('secret_nonce').where('id', '=', second.connection.id).executeTakeFirstOrThrow()
    expect(other.secret_nonce).not.toBe(row.secret_nonce)
  })

  it('checks the credential with GitHub (GET /user) when connecting: a refused one is a 422 credential_refused and stores nothing; no answer does not block', async () => {
    const project = (await team.owner.post('/v1/projects', { name: 'Checked' })).json()
    const body = (apiKey: string) => ({ projectId: project.id, service: 'github', authType: 'api_key', credential: { apiKey }, actionIds: ['github.create_issue'] })
    const stored = async () => (await h.database.db.selectFrom('integration_connections').select('id').where('project_id', '=', project.id).execute()).length
    github.acceptedToken = 'ghp_test_token_value'
    try {
      const before = github.seen.length
      const accepted = await team.owner.post('/v1/integrations/connections/credential', body('ghp_test_token_value'))
      expect(accepted.statusCode, accepted.body).toBe(200)
      expect(accepted.json()).toMatchObject({ status: 'active' })
      expect(accepted.json().lastError).toBeUndefined()
      // One call, in the shape GitHub's published description accepts.
      expect(github.seen.slice(before).map((seen) => [seen.method, seen.path, seen.status, seen.violations])).toEqual([['GET', '/user', 200, undefined]])
      const refused = await team.owner.post('/v1/integrations/connections/credential', body('ghp_made_up_token'))
      expect(refused.statusCode, refused.body).toBe(422)
      expect(refused.headers['content-type']).toContain('application/problem+json')
      expect(refused.json()).toMatchObject({ code: 'credential_refused', status: 422, errors: [{ field: 'credential', code: 'refused' }] })
      expect(refused.json().detail).toContain('GitHub refused this credential')
      expect(refused.body).not.toContain('ghp_made_up_token')
      expect(await stored()).toBe(1)
    } finally {
      github.acceptedToken = undefined
    }
    // A GitHub that does not answer: connecting answers in time (INTEGRATIONS_VERIFY_TIMEOUT_MS), the connection is
    // stored and says its credential was not checked.
    github.hold = (method, path) => method === 'GET' && path === '/user'
    try {
      const started = Date.now()
      const unanswered = await team.owner.post('/v1/integrations/connections/credential', body('ghp_test_token_value'))
      expect(unanswered.statusCode, unanswered.body).toBe(200)
      expect(unanswered.json()).toMatchObject({ status: 'active', lastError: expect.stringContaining('Credential not checked: GitHub') })
      expect(Date.now() - started).toBeLessThan(5000)
      expect(await stored()).toBe(2)
    } finally {
      github.hold = undefined
    }
  })

  it('refuses bad connection input with 400, a foreign project with 404 and a view member with 403', async () => {
    const project = (await team.owner.post('/v1/projects', { name: 'Conn' })).json()
    const base = { projectId: project.id, service: 'github', authType: 'api_key', credential: { apiKey: 'k' }, actionIds: ['github.create_issue'] }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, credential: {} }, 'credential'],
      [{ ...base, credential: { apiKey: 'k', extra: 1 } }, 'credential'],
      [{ ...base, authType: 'custom_credential' }, 'authType'],
      [{ ...base, actionIds: ['webhook.send'] }, 'actionIds'],
      [{ ...base, service: 'myspace' }, 'service'],
      [{ ...base, settings: { repository: 'not a repo' } }, 'settings.repository'],
    ]
    for (const [body, field] of cases) {
      const response = await team.owner.post('/v1/integrations/connections/credential', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().errors.map((error: { field: string }) => error.field).join(',')).toContain(field)
    }
    const foreign = (await team.stranger.post('/v1/projects', { name: 'Theirs' })).json()
    expect((await team.owner.post('/v1/integrations/connections/credential', { ...base, projectId: foreign.id })).statusCode).toBe(404)
    expect((await team.viewer.post('/v1/integrations/connections/credential', base)).statusCode).toBe(403)
    // Idempotency-Key: one connection for two identical requests.
    const key = { 'idempotency-key': `conn-${h.kind}` }
    const first = await team.owner.post('/v1/integrations/connections/credential', base, key)
    const again = await team.owner.post('/v1/integrations/connections/credential', base, key)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().id).toBe(first.json().id)
  })

  it('connects through OAuth with PKCE and a single-use state, and refreshes the token once across concurrent callers', async () => {
    const project = (await team.editor.post('/v1/projects', { name: 'OAuth' })).json()
    const started = await team.editor.post('/v1/integrations/connections/oauth', { projectId: project.id, service: 'github', actionIds: ['github.create_issue'], settings: { repository: 'octo-org/launch' } })
    expect(started.statusCode, started.body).toBe(200)
    const { authorizationURL, connectionAlias, expiresAt, connection } = started.json()
    expect(connection).toMatchObject({ status: 'pending', connectionAlias, hasCredential: false })
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now())
    const url = new URL(authorizationURL)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:8080/v1/integrations/oauth/callback')
    const state = url.searchParams.get('state')!
    // The authorization server issues a code bound to the challenge.
    await fetch(env.INTEGRATIONS_GITHUB_TOKEN_URL!, { method: 'POST', body: new URLSearchParams({ grant_type: 'issue', code: `code-${h.kind}`, challenge: url.searchParams.get('code_challenge')! }) })
    const callback = await h.anonymous.get(`/v1/integrations/oauth/callback?state=${encodeURIComponent(state)}&code=code-${h.kind}`)
    expect(callback.statusCode, callback.body).toBe(200)
    expect(callback.json()).toMatchObject({ connectionId: connection.id, status: 'active' })
    expect(callback.body).not.toContain('gho_first')
    const replay = await h.anonymous.get(`/v1/integrations/oauth/callback?state=${encodeURIComponent(state)}&code=code-${h.kind}`)
    expect(replay.statusCode).toBe(400)
    const wrongState = await h.anonymous.get(`/v1/integrations/oauth/callback?state=forged&code=x`)
    expect(wrongState.statusCode).toBe(400)

    // Expiring soon: two callers at once, one refresh reaches the token endpoint.
    await h.database.db.updateTable('integration_connections').set({ token_expires_at: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', connection.id).execute()
    const before = tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token').length
    const { refreshConnection } = await import('./connections.ts')
    const [a, b] = await Promise.all([refreshConnection(h.app.deps, connection.id), refreshConnection(h.app.deps, connection.id)])
    expect(tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token').length - before).toBe(1)
    expect(a.token_expires_at).toBe(b.token_expires_at)
    expect(new Date(a.token_expires_at!).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000)

    // Revoked while a refresh is in flight: whichever commits first, no token is stored again.
    const [, revoked] = await Promise.all([
      refreshConnection(h.app.deps, connection.id, true).catch(() => undefined),
      team.editor.delete(`/v1/integrations/connections/${connection.id}`),
    ])
    expect(revoked.statusCode, revoked.body).toBe(200)
    await h.app.deps.jobs.drain()
    const row = await h.database.db.selectFrom('integration_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow()
    expect([row.status, row.secret_ciphertext, row.token_expires_at]).toEqual(['revoked', null, null])
    expect((await h.database.db.selectFrom('integration_oauth_states').select('state_hash').where('connection_id', '=', connection.id).execute())).toEqual([])
    expect(await refreshConnection(h.app.deps, connection.id, true)).toMatchObject({ status: 'revoked', secret_ciphertext: null })
  })

  it('rotates the encryption key: rows move to the new version and still decrypt', async () => {
    const { connection } = await githubConnection(team.editor)
    const { rotateSecrets, keyringOf } = await import('./secrets.ts')
    const rotated = { ...h.app.deps, config: { ...h.app.deps.config, integrations: { ...h.app.deps.config.integrations, encryptionKeys: [{ version: 1, key: Buffer.alloc(32, 9) }] } } }
    expect(await rotateSecrets(rotated)).toBeGreaterThan(0)
    const row = await h.database.db.selectFrom('integration_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow()
    expect(row.secret_key_version).toBe(1)
    expect(JSON.parse(keyringOf(rotated).decrypt({ ciphertext: row.secret_ciphertext!, nonce: row.secret_nonce!, keyVersion: 1 }, row.id))).toEqual({ apiKey: 'ghp_test_token_value' })
    // Bound to the row: the same ciphertext under another id does not decrypt.
    expect(() => keyringOf(rotated).decrypt({ ciphertext: row.secret_ciphertext!, nonce: row.secret_nonce!, keyVersion: 1 }, 'con_other')).toThrow()
    await h.database.db.deleteFrom('integration_connections').where('id', '=', connection.id).execute()
  })

  // ---- access ----

  it('lets managers set a project\'s access; everything else is refused', async () => {
    const { projectId, connection } = await githubConnection(team.owner)
    const prepare = (member: Member) => member.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'github.create_issue', input: githubIssueInput() })
    expect((await prepare(team.editor)).statusCode).toBe(200)
    expect((await team.editor.put('/v1/integrations/access', { projectId, connectionIds: [], actionIds: [] })).statusCode).toBe(403)
    const cleared = await team.admin.put('/v1/integrations/access', { projectId, connectionIds: [], actionIds: [] })
    expect(cleared.statusCode, cleared.body).toBe(200)
    const refused = await prepare(team.editor)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('integration_not_allowed')
    const stale = await team.admin.put('/v1/integrations/access', { projectId, connectionIds: [connection.id], actionIds: ['github.create_issue'], expectedUpdatedAt: '2020-01-01T00:00:00.000Z' })
    expect(stale.statusCode).toBe(409)
    expect(stale.json().updatedAt).toBe(cleared.json().updatedAt)
    const restored = await team.admin.put('/v1/integrations/access', { projectId, connectionIds: [connection.id], actionIds: ['github.create_issue'], expectedUpdatedAt: cleared.json().updatedAt })
    expect(restored.statusCode).toBe(200)
    expect((await prepare(team.editor)).statusCode).toBe(200)
    expect((await team.admin.put('/v1/integrations/access', { projectId, connectionIds: ['con_01JAAAAAAAAAAAAAAAAAAAAAAA'], actionIds: [] })).statusCode).toBe(400)
    expect((await team.admin.put('/v1/integrations/access', { projectId, connectionIds: [connection.id], actionIds: ['github.create_issue'], grants: [{ connectionId: connection.id, actionIds: ['webhook.send'] }] })).statusCode).toBe(400)
    const foreign = (await team.stranger.post('/v1/projects', { name: 'Theirs' })).json()
    expect((await team.admin.put('/v1/integrations/access', { projectId: foreign.id, connectionIds: [], actionIds: [] })).statusCode).toBe(404)
  })

  // ---- prepare → approve → execute ----

  it('prepares, approves and executes once: GitHub sees exactly one valid create and the receipt is recorded', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    const bad = await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'github.create_issue', input: { owner: 'octo-org', repo: 'launch' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].field).toBe('input')
    const prepared = await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'github.create_issue', input: githubIssueInput('Exactly once') })
    expect(prepared.statusCode, prepared.body).toBe(200)
    const action = prepared.json()
    expect(action).toMatchObject({ state: 'prepared', actionVersion: 1, payload: { title: 'Exactly once', owner: 'octo-org', repo: 'launch' } })
    expect(action.payload.body).toContain(`confer-action: ${action.id}`)
    expect(action.payloadHash).toMatch(/^[0-9a-f]{64}$/)

    expect((await team.viewer.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).statusCode).toBe(403)
    const stale = await team.editor.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: '0'.repeat(64) })
    expect(stale.statusCode).toBe(409)
    expect(stale.json().payloadHash).toBe(action.payloadHash)
    expect((await team.stranger.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).statusCode).toBe(404)
    const approved = await team.owner.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })
    expect(approved.statusCode, approved.body).toBe(200)
    const { approvalToken, approvalExpiresAt } = approved.json()
    expect(approved.json().action).toMatchObject({ state: 'approved', approvedById: team.owner.accountId })
    expect(new Date(approvalExpiresAt).getTime()).toBeGreaterThan(Date.now())

    const sentBefore = creates().length
    expect((await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken: `${approvalToken}x` })).json().code).toBe('approval_invalid')
    const executed = await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken })
    expect(executed.statusCode, executed.body).toBe(200)
    expect(executed.json()).toMatchObject({ action: { state: 'executing' }, receipt: { state: 'queued' } })
    const reused = await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken })
    expect(reused.statusCode).toBe(409)
    expect(reused.json().code).toBe('approval_used')

    await h.app.deps.jobs.drain()
    expect(creates().length - sentBefore).toBe(1)
    const sent = creates().at(-1)!
    expect(sent.status).toBe(201)
    expect(sent.violations).toBeUndefined()
    expect(JSON.parse(sent.body)).toMatchObject({ title: 'Exactly once' })

    const execution = await team.viewer.get(`/v1/executions/${executed.json().receipt.executionId}`)
    expect(execution.statusCode).toBe(200)
    expect(execution.json()).toMatchObject({ state: 'succeeded', attempts: 1, preparedActionId: action.id, receipt: { state: 'succeeded', externalId: expect.any(String), url: expect.stringContaining('https://') } })
    expect(execution.json().history.map((entry: { state: string }) => entry.state)).toEqual(['queued', 'running', 'succeeded'])
    expect((await team.stranger.get(`/v1/executions/${executed.json().receipt.executionId}`)).statusCode).toBe(404)
  })

  it('prepares once per Idempotency-Key: the same body is replayed, another body is refused', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    const body = { projectId, connectionId: connection.id, actionId: 'github.create_issue', input: githubIssueInput('Keyed') }
    const key = { 'idempotency-key': `prepare-${h.kind}` }
    const [first, second] = await Promise.all([team.editor.post('/v1/integrations/actions/prepare', body, key), team.editor.post('/v1/integrations/actions/prepare', body, key)])
    const answers = [first, second].filter((answer) => answer.statusCode === 200)
    expect(answers.length).toBeGreaterThanOrEqual(1)
    const replay = await team.editor.post('/v1/integrations/actions/prepare', body, key)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().id).toBe(answers[0]!.json().id)
    const rows = await h.database.db.selectFrom('external_actions').select('id').where('connection_id', '=', connection.id).execute()
    expect(rows).toHaveLength(1)
    expect((await team.editor.post('/v1/integrations/actions/prepare', { ...body, input: githubIssueInput('Other') }, key)).statusCode).toBe(422)
  })

  it('refuses a payload changed after approval and an expired approval, sending nothing', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    const prepare = async (title: string) => (await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'github.create_issue', input: githubIssueInput(title) })).json()
    const approve = async (action: { id: string; payloadHash: string }) => (await team.editor.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).json().approvalToken as string
    const sentBefore = creates().length

    const tampered = await prepare('Tampered')
    const tamperedToken = await approve(tampered)
    const payload = JSON.parse((await h.database.db.selectFrom('external_actions').select('payload').where('id', '=', tampered.id).executeTakeFirstOrThrow()).payload)
    await h.database.db.updateTable('external_actions').set({ payload: JSON.stringify({ ...payload, title: 'Something else' }) }).where('id', '=', tampered.id).execute()
    const voided = await team.editor.post(`/v1/actions/${tampered.id}/execute`, { approvalToken: tamperedToken })
    expect(voided.statusCode).toBe(409)
    expect(voided.json().code).toBe('approval_void')

    const expired = await prepare('Expired')
    const expiredToken = await approve(expired)
    await h.database.db.updateTable('external_actions').set({ approval_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expired.id).execute()
    const late = await team.editor.post(`/v1/actions/${expired.id}/execute`, { approvalToken: expiredToken })
    expect(late.statusCode).toBe(403)
    expect(late.json().code).toBe('approval_expired')

    const unapproved = await prepare('Unapproved')
    expect((await team.editor.post(`/v1/actions/${unapproved.id}/execute`, { approvalToken: 'x.y' })).json().code).toBe('approval_required')

    await h.app.deps.jobs.drain()
    expect(creates().length).toBe(sentBefore)
  })

  // ---- recommendations and the work set detail ----

  it('recommends an issue for an action item citing its sources, and shows actions and executions in the work set detail', async () => {
    const { projectId, connection } = await githubConnection(team.owner)
    const segments = await seedSegments(h, { id: team.sessionId }, [{ text: 'Dana will write the migration guide by Friday.' }])
    const item = await capture(team.owner, team.sessionId, { kind: 'action', title: 'Write the migration guide', summary: 'Dana writes it.', targetProjectId: projectId, sourceSegmentIds: segments })
    await capture(team.owner, team.sessionId, { kind: 'action', title: 'No project, no recommendation' })
    const drafted = await team.editor.post(`/v1/work-sets/${item.workSetId}/action-recommendations/draft`)
    expect(drafted.statusCode, drafted.body).toBe(200)
    expect(drafted.json().drafted).toBe(1)
    const [recommendation] = drafted.json().recommendations
    expect(recommendation).toMatchObject({
      workObjectId: item.id, actionId: 'github.create_issue', connectionId: connection.id, projectId, state: 'open', sourceSegmentIds: segments,
      input: { owner: 'octo-org', repo: 'launch', title: 'Write the migration guide' },
    })
    expect(recommendation.input.body).toContain(item.id)
    expect(recommendation.input.body).toContain(segments[0])
    expect((await team.editor.post(`/v1/work-sets/${item.workSetId}/action-recommendations/draft`)).json().drafted).toBe(0)
    expect((await team.viewer.post(`/v1/work-sets/${item.workSetId}/action-recommendations/draft`)).statusCode).toBe(403)

    // The object changes: refreshing redrafts; a stale expectedRevisionHash is refused.
    const edited = await team.owner.patch(`/v1/workobjects/${item.id}`, { expectedRevisionHash: item.revisionHash, content: { title: 'Write the migration guide v2', summary: 'Dana writes it.' } })
    expect(edited.statusCode, edited.body).toBe(200)
    expect((await team.editor.post(`/v1/work-objects/${item.id}/action-recommendations/refresh`, { expectedRevisionHash: item.revisionHash })).statusCode).toBe(409)
    const refreshed = await team.editor.post(`/v1/work-objects/${item.id}/action-recommendations/refresh`, {})
    expect(refreshed.json()).toMatchObject({ drafted: 0, updated: 1, recommendations: [{ id: recommendation.id, input: { title: 'Write the migration guide v2' } }] })

    const detailBefore = (await team.viewer.get(`/v1/worksets/${item.workSetId}`)).json()
    expect(detailBefore.actions).toEqual([expect.objectContaining({ id: recommendation.id, state: 'recommended', workObjectId: item.id })])

    const prepared = await team.editor.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})
    expect(prepared.statusCode, prepared.body).toBe(200)
    expect(prepared.json()).toMatchObject({ recommendationId: recommendation.id, workObjectId: item.id, workSetId: item.workSetId, state: 'prepared' })
    expect((await team.editor.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})).statusCode).toBe(409)
    const token = (await team.owner.post(`/v1/actions/${prepared.json().id}/approve`, { expectedPayloadHash: prepared.json().payloadHash })).json().approvalToken
    const executed = await team.owner.post(`/v1/actions/${prepared.json().id}/execute`, { approvalToken: token })
    await h.app.deps.jobs.drain()

    const detail = (await team.viewer.get(`/v1/worksets/${item.workSetId}`)).json()
    expect(detail.actions).toEqual([expect.objectContaining({ id: prepared.json().id, state: 'succeeded', workObjectId: item.id, receipt: expect.objectContaining({ state: 'succeeded', url: expect.any(String) }) })])
    expect(detail.executions).toEqual([expect.objectContaining({ id: executed.json().receipt.executionId, state: 'succeeded', workObjectId: item.id })])
    const receipt = detail.actions[0].receipt
    const object = (await team.viewer.get(`/v1/workobjects/${item.id}`)).json()
    expect(object.externalRefs).toEqual([{
      provider: 'github', externalId: receipt.externalId, url: receipt.url, summary: expect.any(String),
      actionId: prepared.json().id, executionId: executed.json().receipt.executionId, at: expect.any(String),
    }])
    expect(detail.workObjects.find((one: { id: string }) => one.id === item.id).externalRefs).toEqual(object.externalRefs)
    const events = await eventsOf(h, item.conversationId)
    const executionEvents = events.filter((event) => event.type === 'execution.updated')
    expect(executionEvents.map((event) => event.data.executionState)).toEqual(['queued', 'succeeded'])
    expect(executionEvents.every((event) => event.channel === 'work')).toBe(true)
  })

  // ---- tools, field options, external context ----

  it('lists permitted actions as agent tools and prepares one that still awaits approval', async () => {
    const { connection } = await githubConnection(team.editor)
    const tools = (await team.viewer.get('/v1/agent/external-tools')).json().tools
    const tool = tools.find((candidate: { connectionId: string }) => candidate.connectionId === connection.id)
    expect(tool).toMatchObject({ name: `github_create_issue__${connection.id}`, actionId: 'github.create_issue', inputSchema: { type: 'object', required: expect.arrayContaining(['owner', 'repo', 'title']) } })
    expect((await team.stranger.get('/v1/agent/external-tools')).json().tools.some((candidate: { connectionId: string }) => candidate.connectionId === connection.id)).toBe(false)
    const called = await team.editor.post(`/v1/agent/external-tools/${tool.name}`, { input: githubIssueInput('From an agent') })
    expect(called.statusCode, called.body).toBe(200)
    expect(called.json()).toMatchObject({ state: 'prepared', connectionId: connection.id })
    expect((await team.editor.post(`/v1/agent/external-tools/${tool.name}`, { input: { title: 1 } })).statusCode).toBe(400)
    expect((await team.editor.post('/v1/agent/external-tools/github_create_issue__con_01JAAAAAAAAAAAAAAAAAAAAAAA', { input: githubIssueInput() })).statusCode).toBe(404)
  })

  it('answers field options from the live connection with a query filter', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    const ask = (field: Record<string, unknown>, query?: string) => team.editor.post('/v1/integrations/actions/field-options', {
      projectId, connectionId: connection.id, actionId: 'github.create_issue', field, ...(query !== undefined ? { query } : {}),
    })
    const labels = await ask({ name: 'labels', values: { owner: 'octo-org', repo: 'launch' } })
    expect(labels.statusCode, labels.body).toBe(200)
    expect(labels.json()).toMatchObject({ field: 'labels', sourceActionId: 'github.create_issue' })
    expect(labels.json().options.length).toBeGreaterThan(0)
    const first = labels.json().options[0]
    const filtered = (await ask({ name: 'labels', values: { owner: 'octo-org', repo: 'launch' } }, first.label.slice(0, 3))).json()
    expect(filtered.options).toContainEqual(first)
    expect((await ask({ name: 'labels', values: { owner: 'octo-org', repo: 'launch' } }, 'zzz-no-such-label')).json().options).toEqual([])
    const repositories = (await ask({ name: 'repository' })).json()
    expect(repositories.options[0].value).toMatch(/\//)
    expect((await ask({ name: 'assignees', values: { owner: 'octo-org', repo: 'launch' } })).statusCode).toBe(200)
    expect((await ask({ name: 'milestone' })).statusCode).toBe(400)
    expect(github.seen.filter((seen) => seen.method === 'GET').every((seen) => seen.violations === undefined)).toBe(true)
  })

  it('searches the project\'s permitted connections for external context (the memory module\'s port)', async () => {
    const { projectId, connection } = await githubConnection(team.editor)
    const found = await h.app.deps.ports.externalContext!({ workspaceId: team.editor.workspaceId, projectId, query: 'migration', limit: 5 })
    expect(found.connectionIds).toEqual([connection.id])
    expect(found.items[0]).toMatchObject({ connectionId: connection.id, provider: 'github', url: expect.stringContaining('https://') })
    const search = github.seen.filter((seen) => seen.path.startsWith('/search/issues')).at(-1)!
    expect(decodeURIComponent(search.path)).toContain('repo:octo-org/launch')
    expect(search.status).toBe(200)
    const elsewhere = await h.app.deps.ports.externalContext!({ workspaceId: team.stranger.workspaceId, projectId, query: 'x', limit: 5 })
    expect(elsewhere).toEqual({ items: [], connectionIds: [] })
  })
}, { env })
