import { expect, it } from 'vitest'
import { eachDatabase } from '../../../../test/harness.ts'
import { sha256Hex } from '../../../platform/ids.ts'
import { invite, inviteAndJoin, tokenOf } from '../testing.ts'

eachDatabase('workspace invitations', (h) => {
  it('lets a manager invite: a link for the inviter, delivery link without SMTP, nothing in the outbox', async () => {
    const manager = await h.member()
    const email = h.uniqueEmail('Invitee').toUpperCase()
    const response = await manager.post('/v1/workspace/invitations', { email, contentPermission: 'view', jobRole: 'design' })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({
      delivery: 'link',
      invitation: {
        id: expect.stringMatching(/^inv_[0-9A-Z]{26}$/), workspaceId: manager.workspaceId, email: email.toLowerCase(),
        accessRole: 'member', contentPermission: 'view', jobRole: 'design', status: 'pending', delivery: 'link',
        invitedBy: manager.accountId,
      },
    })
    expect(body.inviteURL).toMatch(/^http:\/\/localhost:8080\/invite\/[A-Za-z0-9_-]{43}$/)
    const expiresIn = new Date(body.invitation.expiresAt).getTime() - Date.now()
    expect(expiresIn).toBeGreaterThan(7 * 86_400_000 - 60_000)
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000)
    // The token is stored only as its SHA-256, and no message (with the link) waits in the outbox.
    const row = await h.database.db.selectFrom('invitations').selectAll().where('id', '=', body.invitation.id).executeTakeFirstOrThrow()
    expect(row.token_hash).toBe(sha256Hex(tokenOf(body.inviteURL)))
    expect(JSON.stringify(row)).not.toContain(tokenOf(body.inviteURL))
    const outbox = await h.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email.toLowerCase()).execute()
    expect(outbox).toEqual([])

    const listed = await manager.get('/v1/workspace/members')
    expect(listed.json().invitations).toEqual([expect.objectContaining({ id: body.invitation.id, status: 'pending' })])
  })

  it('refuses non-managers (403), bad input (400), unknown projects (404), members and repeated invitations (409)', async () => {
    const manager = await h.member()
    const member = await inviteAndJoin(h, manager, { contentPermission: 'edit' })
    const refused = await member.post('/v1/workspace/invitations', { email: h.uniqueEmail() })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('forbidden')

    const bad = await manager.post('/v1/workspace/invitations', { email: 'not-an-email', accessRole: 'owner' })
    expect(bad.statusCode).toBe(400)
    expect(new Set(bad.json().errors.map((error: { field: string }) => error.field))).toEqual(new Set(['accessRole', 'email']))

    const stranger = await h.member()
    const foreignProject = (await stranger.post('/v1/projects', { name: 'Theirs' })).json().id
    const unknownProject = await manager.post('/v1/workspace/invitations', { email: h.uniqueEmail(), projectId: foreignProject })
    expect(unknownProject.statusCode).toBe(404)

    const already = await manager.post('/v1/workspace/invitations', { email: member.email })
    expect(already.statusCode).toBe(409)
    expect(already.json().code).toBe('already_member')

    const email = h.uniqueEmail()
    const first = await invite(manager, { email })
    const again = await manager.post('/v1/workspace/invitations', { email })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'invitation_pending', invitationId: first.invitation.id })
  })

  it('creates exactly one invitation under concurrent invites of one address', async () => {
    const manager = await h.member()
    const email = h.uniqueEmail()
    const answers = await Promise.all(Array.from({ length: 5 }, () => manager.post('/v1/workspace/invitations', { email })))
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409])
    const rows = await h.database.db.selectFrom('invitations').select('id').where('email', '=', email).execute()
    expect(rows).toHaveLength(1)
  })

  it('shows the login intent publicly, then joins the invited email with the invited permission and project', async () => {
    const manager = await h.member()
    await manager.patch('/v1/account/profile', { name: 'Grace Hopper' })
    const project = (await manager.post('/v1/projects', { name: 'Launch' })).json()
    const email = h.uniqueEmail('designer')
    const { token, invitation } = await invite(manager, { email, contentPermission: 'view', jobRole: 'design', projectId: project.id, accessRole: 'admin' })

    const intent = await h.anonymous.post(`/v1/invitations/${token}/login-intent`)
    expect(intent.statusCode).toBe(200)
    expect(intent.json()).toEqual({
      workspaceName: expect.any(String), invitedEmail: email, accessRole: 'admin', contentPermission: 'view',
      expiresAt: invitation.expiresAt, projectId: project.id, projectName: 'Launch', inviterName: 'Grace Hopper',
    })

    // An inviter without a name is named by their email, as in the invitation mail (the page said "— invited …").
    const nameless = await h.member()
    const plain = await invite(nameless, { email: h.uniqueEmail('plain') })
    const current = (await nameless.get('/v1/account/current')).json()
    expect((await h.anonymous.post(`/v1/invitations/${plain.token}/login-intent`)).json().inviterName).toBe(current.account.email)

    const wrong = await h.signIn()
    const mismatch = await wrong.post(`/v1/invitations/${token}/accept`)
    expect(mismatch.statusCode).toBe(403)
    expect(mismatch.json().code).toBe('invitation_email_mismatch')

    const invitee = await h.signIn(email)
    const accepted = await invitee.post(`/v1/invitations/${token}/accept`)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json()).toMatchObject({
      outcome: 'joined', workspace: { id: manager.workspaceId }, projectId: project.id,
      member: { email, accessRole: 'admin', contentPermission: 'view', jobRole: 'design' },
    })
    // The workspace is now the invitee's active one, and they are in the project with their job role.
    expect((await invitee.get('/v1/account/current')).json().workspace.id).toBe(manager.workspaceId)
    const projectMembers = (await invitee.get(`/v1/projects/${project.id}/members`)).json()
    expect(projectMembers).toEqual(expect.arrayContaining([expect.objectContaining({ email, primaryRole: 'design' })]))
    const members = (await manager.get('/v1/workspace/members')).json()
    expect(members.members).toEqual(expect.arrayContaining([expect.objectContaining({ email, contentPermission: 'view', accessRole: 'admin' })]))
    expect(members.invitations).toEqual([])

    // The inviter is told; the invitee is told about the project it was added to.
    const inviterNews = (await manager.get('/v1/collaboration/notifications')).json()
    expect(inviterNews.notifications[0]).toMatchObject({
      kind: 'invitation.accepted', subjectType: 'invitation', subjectId: invitation.id, read: false,
      actor: { accountId: accepted.json().member.accountId }, data: { email, projectId: project.id, projectName: 'Launch' },
    })
    const inviteeNews = (await invitee.get('/v1/collaboration/notifications')).json()
    expect(inviteeNews.notifications).toEqual([expect.objectContaining({ kind: 'project.added', subjectId: project.id, actor: expect.objectContaining({ accountId: manager.accountId }) })])

    // A token works once.
    const again = await invitee.post(`/v1/invitations/${token}/accept`)
    expect(again.statusCode).toBe(404)
    expect(again.json().code).toBe('invitation_used')
    expect((await h.anonymous.post(`/v1/invitations/${token}/login-intent`)).json().code).toBe('invitation_used')
  })

  it('answers 404 for unknown, revoked and expired links, saying which', async () => {
    const manager = await h.member()
    const unknown = await h.anonymous.post(`/v1/invitations/${'x'.repeat(43)}/login-intent`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('not_found')

    const revoked = await invite(manager, { email: h.uniqueEmail() })
    const revoke = await manager.delete(`/v1/workspace/invitations/${revoked.invitation.id}`)
    expect(revoke.json()).toMatchObject({ id: revoked.invitation.id, status: 'revoked' })
    expect((await manager.delete(`/v1/workspace/invitations/${revoked.invitation.id}`)).statusCode).toBe(200)
    expect((await h.anonymous.post(`/v1/invitations/${revoked.token}/login-intent`)).json().code).toBe('invitation_revoked')

    const email = h.uniqueEmail()
    const expired = await invite(manager, { email })
    await h.database.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.invitation.id).execute()
    const invitee = await h.signIn(email)
    const late = await invitee.post(`/v1/invitations/${expired.token}/accept`)
    expect(late.statusCode).toBe(404)
    expect(late.json().code).toBe('invitation_expired')
    expect((await manager.get('/v1/workspace/members')).json().invitations).toEqual([expect.objectContaining({ id: expired.invitation.id, status: 'expired' })])
    // Inviting the address again replaces the expired invitation.
    expect((await manager.post('/v1/workspace/invitations', { email })).statusCode).toBe(200)
  })

  it('resends with a new link and a new expiry; the old link stops working', async () => {
    const manager = await h.member()
    const email = h.uniqueEmail()
    const first = await invite(manager, { email })
    await h.database.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', first.invitation.id).execute()
    const resent = await manager.post(`/v1/workspace/invitations/${first.invitation.id}/resend`)
    expect(resent.statusCode).toBe(200)
    expect(resent.json()).toMatchObject({ delivery: 'link', invitation: { id: first.invitation.id, status: 'pending' } })
    const newToken = tokenOf(resent.json().inviteURL)
    expect(newToken).not.toBe(first.token)
    expect(new Date(resent.json().invitation.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    expect((await h.anonymous.post(`/v1/invitations/${first.token}/login-intent`)).statusCode).toBe(404)
    expect((await h.anonymous.post(`/v1/invitations/${newToken}/login-intent`)).statusCode).toBe(200)

    const invitee = await h.signIn(email)
    expect((await invitee.post(`/v1/invitations/${newToken}/accept`)).statusCode).toBe(200)
    const late = await manager.post(`/v1/workspace/invitations/${first.invitation.id}/resend`)
    expect(late.statusCode).toBe(409)
    expect(late.json()).toMatchObject({ code: 'conflict', status: 'accepted' })
    expect((await manager.delete(`/v1/workspace/invitations/${first.invitation.id}`)).statusCode).toBe(409)
  })

  it('joins once under concurrent accepts, and replays an accept sent with the same Idempotency-Key', async () => {
    const manager = await h.member()
    const email = h.uniqueEmail()
    const { token } = await invite(manager, { email })
    const invitee = await h.signIn(email)
    const answers = await Promise.all(Array.from({ length: 4 }, () => invitee.post(`/v1/invitations/${token}/accept`)))
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404, 404, 404])
    expect((await manager.get('/v1/collaboration/notifications')).json().unreadCount).toBe(1)

    const other = h.uniqueEmail()
    const second = await invite(manager, { email: other })
    const person = await h.signIn(other)
    const key = { 'idempotency-key': 'accept-1' }
    const once = await person.post(`/v1/invitations/${second.token}/accept`, undefined, key)
    const replay = await person.post(`/v1/invitations/${second.token}/accept`, undefined, key)
    expect(replay.statusCode).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(once.json())
  })

  it('joins through bootstrap by the same code path: project, notification, one use', async () => {
    const manager = await h.member()
    const project = (await manager.post('/v1/projects', { name: 'Via bootstrap' })).json()
    const email = h.uniqueEmail()
    await invite(manager, { email, projectId: project.id, jobRole: 'engineering' })
    const invitee = await h.signIn(email)
    // Before joining, the account's first screen can say which workspace bootstrap joins (not creates).
    await manager.patch('/v1/account/profile', { name: 'Ada' })
    const before = (await invitee.get('/v1/account/current')).json()
    expect(before.workspace).toBeUndefined()
    expect(before.pendingInvitation).toEqual({ workspaceName: expect.any(String), inviterName: 'Ada', expiresAt: expect.any(String) })
    const joined = await invitee.post('/v1/account/bootstrap', {})
    expect((await invitee.get('/v1/account/current')).json().pendingInvitation).toBeUndefined()
    expect(joined.json()).toMatchObject({ outcome: 'joined', workspace: { id: manager.workspaceId }, membership: { jobRole: 'engineering' } })
    const members = (await invitee.get(`/v1/projects/${project.id}/members`)).json()
    expect(members).toEqual(expect.arrayContaining([expect.objectContaining({ email, primaryRole: 'engineering' })]))
    expect((await manager.get('/v1/collaboration/notifications')).json().notifications[0].kind).toBe('invitation.accepted')
  })
})
