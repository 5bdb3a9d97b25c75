// A meeting's action becomes a GitHub issue exactly once, through the real server process: the
// action item is captured into a project with a GitHub connection, recommended, prepared, approved
// and executed. The server is killed (SIGKILL) while its create call is in flight (held by the
// mock's proxy, so it never reached GitHub); a new server on the same database claims the job
// again, looks for an issue the first call might have made (none), and creates it once. GitHub's
// published REST description, served by a validating Prism mock, sees exactly one valid create.
// A reused token is refused with nothing sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, tempDir, type TestDatabase } from '../databases.ts'
import { startGithubMock, type GithubMock } from '../providers/github-mock.ts'
import { call, startNode, type Node } from './capture-server.ts'
import { signInOverHttp, startMailCatcher, type MailCatcher, type RunningServer } from './server.ts'

const isCreate = (method: string, path: string) => method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/issues$/.test(path)

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.each(databaseKinds)('an approved external action survives SIGKILL and runs once [%s]', (kind) => {
  let mail: MailCatcher
  let github: GithubMock
  let database: TestDatabase
  const nodes: Node[] = []
  beforeAll(async () => {
    ;[mail, github, database] = await Promise.all([startMailCatcher(), startGithubMock(), createTestDatabase(kind)])
  })
  afterAll(async () => {
    for (const node of nodes) await node.stop()
    await mail?.close()
    await github?.close()
    await database?.drop()
  })

  it('recommends, prepares, approves and executes once across a crash; the receipt is on the work object', async () => {
    const dataDir = tempDir('confer-action-crash-')
    const env = { SMTP_URL: mail.url, INTEGRATIONS_GITHUB_API_URL: github.url, JOB_VISIBILITY_TIMEOUT_MS: '2000', JOB_POLL_INTERVAL_MS: '200' }
    const first = await startNode({ databaseUrl: database.url, dataDir, env })
    nodes.push(first)
    const cookie = await signInOverHttp({ baseUrl: first.baseUrl } as RunningServer, mail, `action-${kind}-${Date.now()}@example.com`)
    const ok = async (node: Node, method: string, route: string, body?: unknown) => {
      const answer = await call(node, cookie, method, route, body)
      expect(answer.status, `${method} ${route}: ${JSON.stringify(answer.body)}`).toBe(200)
      return answer.body
    }
    await ok(first, 'POST', '/v1/account/bootstrap', {})
    const project = await ok(first, 'POST', '/v1/projects', { name: 'Launch' })
    const connection = await ok(first, 'POST', '/v1/integrations/connections/credential', {
      projectId: project.id, service: 'github', authType: 'api_key', credential: { apiKey: 'ghp_e2e' },
      actionIds: ['github.create_issue'], settings: { repository: 'octo-org/launch' },
    })
    const session = await ok(first, 'POST', '/v1/sessions', { captureMode: 'microphone' })
    const item = await ok(first, 'POST', `/v1/sessions/${session.id}/workobjects`, {
      kind: 'action', title: 'Publish the migration guide', summary: 'Agreed in the launch sync.', targetProjectId: project.id,
    })

    const drafted = await ok(first, 'POST', `/v1/work-sets/${item.workSetId}/action-recommendations/draft`, {})
    const recommendation = drafted.recommendations.find((candidate: { workObjectId: string }) => candidate.workObjectId === item.id)
    expect(recommendation).toMatchObject({ actionId: 'github.create_issue', connectionId: connection.id, state: 'open' })
    const prepared = await ok(first, 'POST', `/v1/action-recommendations/${recommendation.id}/prepare`, {})
    const approval = await ok(first, 'POST', `/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })

    // The create call is held in flight; the server dies while waiting for GitHub's answer.
    github.hold = isCreate
    const executed = await ok(first, 'POST', `/v1/actions/${prepared.id}/execute`, { approvalToken: approval.approvalToken })
    const executionId: string = executed.receipt.executionId
    await until('the create call to be in flight', async () => (github.held > 0 ? true : undefined))
    first.process.kill('SIGKILL')
    await first.exited
    github.hold = undefined
    expect(github.seen.filter((seen) => isCreate(seen.method, seen.path))).toHaveLength(0)

    const second = await startNode({ databaseUrl: database.url, dataDir, env })
    nodes.push(second)
    const execution = await until('the execution to finish', async () => {
      const answer = await call(second, cookie, 'GET', `/v1/executions/${executionId}`)
      return ['succeeded', 'failed'].includes(answer.body?.state) ? answer.body : undefined
    })
    expect(execution).toMatchObject({ state: 'succeeded', attempts: 2, receipt: { state: 'succeeded', externalId: expect.any(String), url: expect.stringContaining('https://') } })
    expect(execution.history.map((entry: { state: string }) => entry.state)).toEqual(['queued', 'running', 'running', 'reconciled', 'succeeded'])

    const sent = github.seen.filter((seen) => isCreate(seen.method, seen.path))
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ status: 201, path: '/repos/octo-org/launch/issues' })
    expect(sent[0]!.violations).toBeUndefined()
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ title: 'Publish the migration guide' })
    expect(JSON.parse(sent[0]!.body).body).toContain(item.id)

    // The receipt is on the work object's set, beside the object.
    const detail = await ok(second, 'GET', `/v1/worksets/${item.workSetId}`)
    expect(detail.actions).toContainEqual(expect.objectContaining({ id: prepared.id, workObjectId: item.id, state: 'succeeded', receipt: expect.objectContaining({ externalId: execution.receipt.externalId }) }))
    expect(detail.executions).toContainEqual(expect.objectContaining({ id: executionId, workObjectId: item.id, state: 'succeeded' }))
    // And on the work object itself: the created issue's id and URL, once, though the run crashed.
    const object = await ok(second, 'GET', `/v1/workobjects/${item.id}`)
    expect(object.externalRefs).toEqual([expect.objectContaining({
      provider: 'github', externalId: execution.receipt.externalId, url: execution.receipt.url, actionId: prepared.id, executionId,
    })])

    // The token was spent: using it again is refused and nothing more is sent.
    const again = await call(second, cookie, 'POST', `/v1/actions/${prepared.id}/execute`, { approvalToken: approval.approvalToken })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('approval_used')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(github.seen.filter((seen) => isCreate(seen.method, seen.path))).toHaveLength(1)
  })
})
