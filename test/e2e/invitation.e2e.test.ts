// Invitation end to end against the real server process: a manager invites a colleague by email,
// the invitation travels over real SMTP, the colleague opens the login intent, signs in with a
// mailed code, accepts, and appears among the members with the invited permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../databases.ts'
import { postJson, signInOverHttp, startMailCatcher, startServer, type CaughtMail, type MailCatcher, type RunningServer } from './server.ts'

const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`

/** The decoded text body of a caught message (nodemailer picks 7bit, quoted-printable or base64). */
function textOf(message: CaughtMail): string {
  const [head = '', ...rest] = message.raw.split(/\r?\n\r?\n/)
  const body = rest.join('\n\n')
  const encoding = head.match(/^Content-Transfer-Encoding:\s*(\S+)/im)?.[1]?.toLowerCase()
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  }
  return body
}

async function mailTo(mail: MailCatcher, email: string, after: number): Promise<CaughtMail> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const message = mail.messages.slice(after).find((item) => item.to.includes(email))
    if (message) return message
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`nothing was mailed to ${email}`)
}

describe.each(databaseKinds)('invitation against the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer
  // What a browser on PUBLIC_URL sends with every POST.
  let origin: Record<string, string>
  const get = async (path: string, cookie: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: { cookie } })
    return { status: response.status, body: await response.json() as any }
  }
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await postJson(`${server.baseUrl}${path}`, body, { ...origin, ...(cookie ? { cookie } : {}) })
    return { status: response.status, body: await response.json() as any }
  }

  beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startServer(kind, { SMTP_URL: mail.url })
    origin = { origin: server.baseUrl }
  })
  afterAll(async () => {
    await server?.stop()
    await mail?.close()
  })

  it('invites by email; the colleague opens the link, signs in with a code, accepts and joins with the invited permission', async () => {
    const managerEmail = uniqueEmail('manager')
    const manager = await signInOverHttp(server, mail, managerEmail)
    const patched = await fetch(`${server.baseUrl}/v1/account/profile`, {
      method: 'PATCH', headers: { 'content-type': 'application/json', cookie: manager, ...origin }, body: JSON.stringify({ name: 'Mina Manager' }),
    })
    expect(patched.status).toBe(200)
    const boot = await post('/v1/account/bootstrap', { workspaceName: 'Northwind' }, manager)
    expect(boot.status).toBe(200)
    const workspaceId = boot.body.workspace.id as string
    const project = await post('/v1/projects', { name: 'Spring launch' }, manager)
    expect(project.status).toBe(200)

    const colleagueEmail = uniqueEmail('colleague')
    const seen = mail.messages.length
    const invited = await post('/v1/workspace/invitations', {
      email: colleagueEmail, contentPermission: 'view', jobRole: 'design', projectId: project.body.id,
    }, manager)
    expect(invited.status).toBe(200)
    expect(invited.body).toMatchObject({ delivery: 'email', invitation: { email: colleagueEmail, status: 'pending', delivery: 'email' } })
    expect(invited.body.inviteURL).toMatch(new RegExp(`^${server.baseUrl}/invite/[A-Za-z0-9_-]{43}$`))

    // The colleague receives the link over SMTP.
    const message = await mailTo(mail, colleagueEmail, seen)
    expect(message.raw).toMatch(/^Subject: Mina Manager invited you to Northwind on Confer$/m)
    const text = textOf(message)
    expect(text).toContain(invited.body.inviteURL)
    expect(text).toContain('Spring launch')
    const token = text.match(/\/invite\/([A-Za-z0-9_-]+)/)![1]!

    // The sign-in page shows what the link is for, without a session.
    const intent = await post(`/v1/invitations/${token}/login-intent`, {})
    expect(intent.status).toBe(200)
    expect(intent.body).toMatchObject({
      workspaceName: 'Northwind', invitedEmail: colleagueEmail, contentPermission: 'view',
      projectId: project.body.id, projectName: 'Spring launch', inviterName: 'Mina Manager',
    })

    // The colleague signs in with the mailed code and accepts.
    const colleague = await signInOverHttp(server, mail, colleagueEmail)
    const accepted = await post(`/v1/invitations/${token}/accept`, {}, colleague)
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({
      outcome: 'joined', workspace: { id: workspaceId, name: 'Northwind' }, projectId: project.body.id,
      member: { email: colleagueEmail, accessRole: 'member', contentPermission: 'view', jobRole: 'design' },
    })

    const members = await get('/v1/workspace/members', manager)
    expect(members.status).toBe(200)
    expect(members.body.members).toEqual(expect.arrayContaining([
      expect.objectContaining({ email: managerEmail, accessRole: 'owner', contentPermission: 'edit' }),
      expect.objectContaining({ email: colleagueEmail, accessRole: 'member', contentPermission: 'view', jobRole: 'design' }),
    ]))
    expect(members.body.invitations).toEqual([])
    const news = await get('/v1/collaboration/notifications', manager)
    expect(news.body.notifications[0]).toMatchObject({ kind: 'invitation.accepted', data: { email: colleagueEmail } })

    // The invited permission holds: the colleague reads the project but cannot create content.
    const projects = await get('/v1/projects', colleague)
    expect(projects.body.map((item: { id: string }) => item.id)).toEqual([project.body.id])
    const refused = await post('/v1/projects', { name: 'Not allowed' }, colleague)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('forbidden')
    // The link worked once.
    expect((await post(`/v1/invitations/${token}/login-intent`, {})).body.code).toBe('invitation_used')
  })
})
