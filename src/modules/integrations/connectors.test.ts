// The webhook connector against a receiver that verifies with the standardwebhooks library (and a
// retry on 5xx that is the same message), the email connector against an SMTP sink, and the
// concurrency guards of approve/execute — through HTTP on SQLite and PostgreSQL.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startMailCatcher, type MailCatcher } from '../../../test/e2e/server.ts'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { capture, workTeam } from '../work/testing.ts'
import { approvedAction } from './testing.ts'

const signingSecret = `whsec_${randomBytes(32).toString('base64')}`
type Delivery = { id: string; verified: boolean; status: number; payload?: { type: string; data: Record<string, unknown> } }
const deliveries: Delivery[] = []
let receiver: Server
let receiverUrl: string
let mail: MailCatcher
/** answers per path, consumed in order; then 200 */
const script = new Map<string, number[]>()
const env: Record<string, string> = {}

beforeAll(async () => {
  mail = await startMailCatcher()
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => { body += chunk.toString() })
    request.on('end', () => {
      let verified = false
      let payload: Delivery['payload']
      try {
        payload = new Webhook(signingSecret).verify(body, request.headers as Record<string, string>) as Delivery['payload']
        verified = true
      } catch {
        verified = false
      }
      const status = verified ? script.get(request.url!)?.shift() ?? 200 : 401
      deliveries.push({ id: String(request.headers['webhook-id']), verified, status, ...(payload ? { payload } : {}) })
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve))
  await mail?.close()
})

eachDatabase('connectors and guards', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
  })

  async function connect(member: Member, body: Record<string, unknown>) {
    const project = (await member.post('/v1/projects', { name: 'Hooks' })).json()
    const answer = await member.post('/v1/integrations/connections/credential', { projectId: project.id, ...body })
    expect(answer.statusCode, answer.body).toBe(200)
    return { projectId: project.id as string, connection: answer.json() }
  }

  async function runAction(member: Member, projectId: string, connectionId: string, actionId: string, input: Record<string, unknown>) {
    const prepared = await member.post('/v1/integrations/actions/prepare', { projectId, connectionId, actionId, input })
    expect(prepared.statusCode, prepared.body).toBe(200)
    const token = (await member.post(`/v1/actions/${prepared.json().id}/approve`, { expectedPayloadHash: prepared.json().payloadHash })).json().approvalToken
    const executed = await member.post(`/v1/actions/${prepared.json().id}/execute`, { approvalToken: token })
    expect(executed.statusCode, executed.body).toBe(200)
    // Retries wait for their backoff: drain until the execution has an outcome.
    const url = `/v1/executions/${executed.json().receipt.executionId}`
    for (let round = 0; round < 40; round += 1) {
      await h.app.deps.jobs.drain()
      const execution = (await member.get(url)).json()
      if (execution.state === 'succeeded' || execution.state === 'failed') return { action: prepared.json(), execution }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    throw new Error('the execution did not finish')
  }

  it('sends a signed webhook the receiver verifies; a 5xx is retried as the same message', async () => {
    const path = `/flaky-${h.kind}`
    script.set(path, [503])
    const { projectId, connection } = await connect(team.editor, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: `${receiverUrl}${path}` },
    })
    expect(JSON.stringify(connection)).not.toContain(signingSecret.slice(6, 20))
    const before = deliveries.length
    const { action, execution } = await runAction(team.editor, projectId, connection.id, 'webhook.send', { type: 'confer.decision', data: { title: 'Ship on Friday' } })
    const mine = deliveries.slice(before)
    expect(mine.map((delivery) => [delivery.status, delivery.verified])).toEqual([[503, true], [200, true]])
    expect(new Set(mine.map((delivery) => delivery.id))).toEqual(new Set([action.id]))
    expect(mine[1]!.payload).toMatchObject({ type: 'confer.decision', data: { title: 'Ship on Friday' } })
    expect(execution).toMatchObject({ state: 'succeeded', attempts: 2 })
    expect(execution.history.map((entry: { state: string }) => entry.state)).toEqual(['queued', 'running', 'retrying', 'running', 'succeeded'])
  })

  it('fails at once, without a retry, when the receiver refuses with a 4xx', async () => {
    const path = `/refusing-${h.kind}`
    script.set(path, [400, 400])
    const { projectId, connection } = await connect(team.editor, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: `${receiverUrl}${path}` },
    })
    const before = deliveries.length
    const { execution } = await runAction(team.editor, projectId, connection.id, 'webhook.send', { type: 'confer.test', data: {} })
    expect(deliveries.length - before).toBe(1)
    expect(execution).toMatchObject({ state: 'failed', attempts: 1, error: expect.stringContaining('400') })
  })

  it('says why a receiver could not be reached (fetch only says "fetch failed")', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const { projectId, connection } = await connect(team.editor, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: `http://127.0.0.1:${port}/gone` },
    })
    const prepared = (await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'webhook.send', input: { type: 'confer.test', data: {} } })).json()
    const token = (await team.editor.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const executionId = (await team.editor.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json().receipt.executionId
    await h.app.deps.jobs.drain()
    const execution = (await team.editor.get(`/v1/executions/${executionId}`)).json()
    expect(execution.history.find((entry: { state: string }) => entry.state === 'retrying')?.detail).toBe(`webhook: could not reach 127.0.0.1:${port}: ECONNREFUSED`)
  })

  it('says why fetch would not call the receiver at all (a port it refuses: "bad port")', async () => {
    const { projectId, connection } = await connect(team.editor, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: 'http://127.0.0.1:9/discard' },
    })
    const prepared = (await team.editor.post('/v1/integrations/actions/prepare', { projectId, connectionId: connection.id, actionId: 'webhook.send', input: { type: 'confer.test', data: {} } })).json()
    const token = (await team.editor.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const executionId = (await team.editor.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json().receipt.executionId
    await h.app.deps.jobs.drain()
    const execution = (await team.editor.get(`/v1/executions/${executionId}`)).json()
    // Refused the same way on every attempt: failed at once, not retried to the attempt limit.
    expect(execution.state).toBe('failed')
    expect(execution.history.filter((entry: { state: string }) => entry.state === 'running')).toHaveLength(1)
    expect(execution.history.some((entry: { state: string }) => entry.state === 'retrying')).toBe(false)
    expect(JSON.stringify(execution)).toContain('webhook: could not reach 127.0.0.1:9: bad port')
  })

  it('recommends a channel message for a decision when the project has a webhook', async () => {
    const { projectId, connection } = await connect(team.owner, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: `${receiverUrl}/decisions` },
    })
    const decision = await capture(team.owner, team.sessionId, { kind: 'decision', title: 'We launch on Friday', targetProjectId: projectId })
    const drafted = (await team.editor.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json()
    expect(drafted.recommendations).toEqual([expect.objectContaining({
      actionId: 'webhook.send', connectionId: connection.id, input: { type: 'confer.decision', data: expect.objectContaining({ workObjectId: decision.id, title: 'We launch on Friday' }) },
      // The reason as a code too, for a client to say it in its reader's language.
      reason: 'A decision is announced in the project\'s channel.', reasonCode: 'decision-announcement',
    })])
  })

  // A new user recorded a meeting into a project and connected a webhook there: its decisions have no
  // targetProjectId of their own (the meeting's project is theirs), and nothing was ever recommended.
  it('recommends for the work of a meeting recorded in the project, and follows the meeting to another project', async () => {
    const { projectId, connection } = await connect(team.owner, {
      service: 'webhook', authType: 'custom_credential', credential: { signingSecret }, actionIds: ['webhook.send'], settings: { url: `${receiverUrl}/meeting-decisions` },
    })
    const session = (await team.editor.post('/v1/sessions', { captureMode: 'microphone', title: 'Release sync', projectId })).json()
    expect(session).toMatchObject({ projectId, reusedExisting: false })
    const decision = await capture(team.editor, session.id, { kind: 'decision', title: 'Drop the legacy export' })
    expect(decision.targetProjectId).toBeUndefined()
    const drafted = (await team.editor.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json()
    expect(drafted.recommendations).toEqual([expect.objectContaining({ actionId: 'webhook.send', connectionId: connection.id, projectId })])

    // Moved to a project without a connection, the meeting's decision has nothing to send.
    const elsewhere = (await team.owner.post('/v1/projects', { name: 'No tools' })).json()
    expect((await team.editor.patch(`/v1/sessions/${session.id}`, { projectId: elsewhere.id })).statusCode).toBe(200)
    const after = (await team.editor.post(`/v1/work-objects/${decision.id}/action-recommendations/refresh`, {})).json()
    expect(after.recommendations.filter((item: { state: string }) => item.state === 'open')).toEqual([])
  })

  it('sends an email through the server\'s mailer (the outbox without SMTP_URL)', async () => {
    const { projectId, connection } = await connect(team.editor, { service: 'email', authType: 'no_auth', credential: {}, actionIds: ['email.send'] })
    expect(connection).toMatchObject({ hasCredential: false, authType: 'no_auth' })
    const to = `decisions-${h.kind}@example.com`
    const { execution } = await runAction(team.editor, projectId, connection.id, 'email.send', { to: [to], subject: 'Decision: launch on Friday', text: 'Agreed in the sync.' })
    // Kept in the outbox is not mailed: the receipt says so (it said "Sent to 1 recipient").
    expect(execution).toMatchObject({ state: 'succeeded', receipt: { summary: 'Not mailed: this server has no SMTP_URL, so the email to 1 recipient was only kept in its outbox' } })
    const stored = await h.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ subject: 'Decision: launch on Friday', body_text: 'Agreed in the sync.' })
  })

  it('sends the email over SMTP when the server has a transport (SMTP sink)', async () => {
    const { createMailer } = await import('../../platform/mail/mailer.ts')
    const { emailConnector } = await import('./connectors/email.ts')
    const mailer = createMailer({ ...h.config, smtpUrl: mail.url }, h.database.db, h.app.log)
    const to = `smtp-${h.kind}@example.com`
    const receipt = await emailConnector.execute({ connectionId: 'con_x', credential: {}, settings: {}, config: h.config, mailer }, 'email.send',
      { to: [to], subject: 'Follow-up', text: 'Send the deck by Monday.' }, { actionRowId: 'act_x', executionId: 'exe_x' })
    mailer.close()
    expect(receipt).toMatchObject({ delivered: true })
    expect(mail.messages.find((candidate) => candidate.to.includes(to))?.raw).toContain('Send the deck by Monday.')
  })

  it('spends an approval once when two executions race with the same token', async () => {
    const { action, approvalToken } = await approvedAction(team.editor)
    const answers = await Promise.all([1, 2, 3].map(() => team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken })))
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409])
    const executions = await h.database.db.selectFrom('external_executions').select('id').where('action_row_id', '=', action.id).execute()
    expect(executions).toHaveLength(1)
    // Approving an executing action is refused; the token cannot be re-issued.
    const again = await team.editor.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'action_state_conflict', state: 'executing' })
  })

  it('voids the previous token when an action is approved again', async () => {
    const { action, approvalToken } = await approvedAction(team.editor)
    const second = (await team.owner.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).json()
    expect(second.approvalToken).not.toBe(approvalToken)
    expect((await team.editor.post(`/v1/actions/${action.id}/execute`, { approvalToken })).json().code).toBe('approval_invalid')
    const [a, b] = await Promise.all([
      team.owner.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash }),
      team.editor.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash }),
    ])
    expect([a.statusCode, b.statusCode]).toEqual([200, 200])
    const stored = await h.database.db.selectFrom('external_actions').select('approval_token_hash').where('id', '=', action.id).executeTakeFirstOrThrow()
    const { sha256Hex } = await import('../../platform/ids.ts')
    // Exactly one of the racing tokens is current.
    expect([sha256Hex(a.json().approvalToken), sha256Hex(b.json().approvalToken)].filter((hash) => hash === stored.approval_token_hash)).toHaveLength(1)
  })
}, { env })
