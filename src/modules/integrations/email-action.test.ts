// An action item about sending or telling someone something gets the project's Email connection's
// send action recommended, drafted with the named member's address, the item's title and summary,
// and sent only after a person approves it — through HTTP on SQLite and PostgreSQL, with the
// server's mail transport pointed at a real SMTP server (the test mail catcher).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startMailCatcher, type MailCatcher } from '../../../test/e2e/server.ts'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts'
import { capture, workTeam } from '../work/testing.ts'
import { isMessageItem, recipientsOf } from './email-draft.ts'
import type { WorkObject } from '../work/index.ts'

let mail: MailCatcher
beforeAll(async () => { mail = await startMailCatcher() })
afterAll(async () => { await mail?.close() })

it('drafts recipients from the addresses written and the members named after a cue word', () => {
  const item = (title: string, summary?: string) => ({ kind: 'action', title, ...(summary ? { summary } : {}) }) as WorkObject
  const members = [{ name: 'Dana Li', email: 'Dana@example.com' }, { name: 'Sam Ortiz', email: 'sam@example.com' }, { name: null, email: 'x@example.com' }]
  expect(recipientsOf(item('Email Dana the numbers'), members)).toEqual(['dana@example.com'])
  expect(recipientsOf(item('Send the deck to Dana Li and tell Sam'), members)).toEqual(['dana@example.com', 'sam@example.com'])
  expect(recipientsOf(item('Dana to email the client the notes'), members)).toEqual([])
  expect(recipientsOf(item('Send the notes to the client', 'Their address is ops@client.example.org.'), members)).toEqual(['ops@client.example.org'])
  expect(isMessageItem(item('Let Sam know the launch moved'))).toBe(true)
  expect(isMessageItem(item('Fix the login bug'))).toBe(false)
  expect(isMessageItem({ ...item('Email Dana'), kind: 'decision' } as WorkObject)).toBe(false)
})

eachDatabase('email actions recommended from action items', (h) => {
  let team: Awaited<ReturnType<typeof workTeam<'editor'>>>
  let projectId: string
  let connectionId: string
  let serverMailer: Mailer
  let smtpMailer: Mailer
  beforeAll(async () => {
    team = await workTeam(h, ['editor'])
    expect((await team.editor.patch('/v1/account/profile', { name: 'Dana Li' })).statusCode).toBe(200)
    projectId = (await team.editor.post('/v1/projects', { name: 'Client work' })).json().id
    const connected = await team.editor.post('/v1/integrations/connections/credential', { projectId, service: 'email', authType: 'no_auth', credential: {}, actionIds: ['email.send'] })
    expect(connected.statusCode, connected.body).toBe(200)
    connectionId = connected.json().id
    // The server as configured with SMTP_URL (sign-in above went through the outbox).
    serverMailer = h.app.deps.mailer
    smtpMailer = createMailer({ ...h.config, smtpUrl: mail.url }, h.database.db, h.app.log)
    h.app.deps.mailer = smtpMailer
  })
  afterAll(() => {
    h.app.deps.mailer = serverMailer
    smtpMailer?.close()
  })

  const refresh = async (member: Member, workObjectId: string) => {
    const answer = await member.post(`/v1/work-objects/${workObjectId}/action-recommendations/refresh`, {})
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.json().recommendations as { id: string; actionId: string; connectionId: string; input: Record<string, unknown> }[]
  }

  async function execute(member: Member, action: { id: string; payloadHash: string }) {
    const token = (await member.post(`/v1/actions/${action.id}/approve`, { expectedPayloadHash: action.payloadHash })).json().approvalToken
    const executed = await member.post(`/v1/actions/${action.id}/execute`, { approvalToken: token })
    expect(executed.statusCode, executed.body).toBe(200)
    const url = `/v1/executions/${executed.json().receipt.executionId}`
    for (let round = 0; round < 40; round += 1) {
      await h.app.deps.jobs.drain()
      const execution = (await member.get(url)).json()
      if (execution.state === 'succeeded' || execution.state === 'failed') return execution
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('the execution did not finish')
  }

  it('recommends an email to the member the item names; nothing is sent until a person approves it', async () => {
    const item = await capture(team.owner, team.sessionId, { kind: 'action', title: `Email Dana the Q3 numbers ${h.kind}`, summary: 'Revenue and churn as shown in the sync.', targetProjectId: projectId })
    const [recommendation, ...others] = await refresh(team.editor, item.id)
    expect(others).toEqual([])
    expect(recommendation).toMatchObject({
      actionId: 'email.send', connectionId,
      input: { to: [team.editor.email], subject: `Email Dana the Q3 numbers ${h.kind}`, text: expect.stringContaining('Revenue and churn as shown in the sync.') },
    })
    expect(String(recommendation!.input.text)).toContain(`From Confer work object ${item.id}`)
    const prepared = await team.editor.post(`/v1/action-recommendations/${recommendation!.id}/prepare`, {})
    expect(prepared.statusCode, prepared.body).toBe(200)
    expect(mail.messages.filter((message) => message.to.includes(team.editor.email))).toEqual([])

    const execution = await execute(team.editor, prepared.json())
    expect(execution).toMatchObject({ state: 'succeeded', receipt: { summary: 'Sent to 1 recipient' } })
    const sent = mail.messages.filter((message) => message.to.includes(team.editor.email))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.raw).toContain(`Subject: Email Dana the Q3 numbers ${h.kind}`)
    expect(sent[0]!.raw).toContain('Revenue and churn as shown in the sync.')
  })

  it('drafts an email without recipients when the item names nobody known; preparing asks for them', async () => {
    const item = await capture(team.owner, team.sessionId, { kind: 'action', title: 'Send the meeting notes to the client', targetProjectId: projectId })
    const [recommendation] = await refresh(team.editor, item.id)
    expect(recommendation).toMatchObject({ actionId: 'email.send', input: { to: [], subject: 'Send the meeting notes to the client' } })
    const refused = await team.editor.post(`/v1/action-recommendations/${recommendation!.id}/prepare`, {})
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ code: 'validation_failed' })
    const client = `client-${h.kind}@example.org`
    const prepared = await team.editor.post(`/v1/action-recommendations/${recommendation!.id}/prepare`, { input: { to: [client] } })
    expect(prepared.statusCode, prepared.body).toBe(200)
    expect(prepared.json().payload).toMatchObject({ to: [client], subject: 'Send the meeting notes to the client' })
    await execute(team.editor, prepared.json())
    expect(mail.messages.filter((message) => message.to.includes(client))).toHaveLength(1)
  })

  it('recommends no email for an item that sends nothing, nor for a decision', async () => {
    const task = await capture(team.owner, team.sessionId, { kind: 'action', title: 'Fix the login bug', targetProjectId: projectId })
    expect(await refresh(team.editor, task.id)).toEqual([])
    const decision = await capture(team.owner, team.sessionId, { kind: 'decision', title: 'We email the client weekly', targetProjectId: projectId })
    expect(await refresh(team.editor, decision.id)).toEqual([])
  })
})
