import { expect, it } from 'vitest'
import { eachDatabase } from '../../../../test/harness.ts'
import { inviteAndJoin } from '../testing.ts'

eachDatabase('workspace members', (h) => {
  it('lists members with their roles and permissions to every member', async () => {
    const owner = await h.member()
    await owner.patch('/v1/account/profile', { name: 'Olga Owner' })
    const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view', jobRole: 'product' })
    const listed = await viewer.get('/v1/workspace/members')
    expect(listed.statusCode).toBe(200)
    expect(listed.json()).toEqual({
      members: [
        { accountId: owner.accountId, name: 'Olga Owner', email: owner.email, accessRole: 'owner', contentPermission: 'edit', joinedAt: expect.any(String) },
        { accountId: viewer.accountId, name: expect.any(String), email: viewer.email, accessRole: 'member', contentPermission: 'view', jobRole: 'product', joinedAt: expect.any(String) },
      ],
      invitations: [],
    })
  })

  it('lets a manager change a member\'s permission, which takes effect on the next request', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    expect((await member.post('/v1/projects', { name: 'Allowed' })).statusCode).toBe(200)
    const changed = await owner.patch(`/v1/workspace/members/${member.accountId}`, { contentPermission: 'view', jobRole: 'design' })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ accountId: member.accountId, accessRole: 'member', contentPermission: 'view', jobRole: 'design' })
    const refused = await member.post('/v1/projects', { name: 'Refused' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('forbidden')

    expect((await owner.patch(`/v1/workspace/members/${member.accountId}`, { accessRole: 'admin' })).json().accessRole).toBe('admin')
    // An admin with view permission manages members but still cannot change content.
    const third = await inviteAndJoin(h, owner)
    expect((await member.patch(`/v1/workspace/members/${third.accountId}`, { contentPermission: 'view' })).statusCode).toBe(200)
    expect((await member.post('/v1/projects', { name: 'Still refused' })).statusCode).toBe(403)
  })

  it('keeps owners to owners and never leaves a workspace without one', async () => {
    const owner = await h.member()
    const admin = await inviteAndJoin(h, owner, { accessRole: 'admin' })
    const member = await inviteAndJoin(h, owner)
    const cases = [
      [await member.patch(`/v1/workspace/members/${admin.accountId}`, { contentPermission: 'view' }), 403, 'forbidden'],
      [await admin.patch(`/v1/workspace/members/${owner.accountId}`, { accessRole: 'member' }), 403, 'forbidden'],
      [await admin.patch(`/v1/workspace/members/${member.accountId}`, { accessRole: 'owner' }), 403, 'forbidden'],
      [await admin.delete(`/v1/workspace/members/${owner.accountId}`), 403, 'forbidden'],
      [await owner.patch(`/v1/workspace/members/${owner.accountId}`, { accessRole: 'admin' }), 409, 'last_owner'],
      [await owner.delete(`/v1/workspace/members/${owner.accountId}`), 409, 'last_owner'],
    ] as const
    for (const [response, status, code] of cases) {
      expect(response.statusCode, response.body).toBe(status)
      expect(response.json().code).toBe(code)
    }
    // With a second owner, the first may step down.
    expect((await owner.patch(`/v1/workspace/members/${admin.accountId}`, { accessRole: 'owner' })).statusCode).toBe(200)
    expect((await owner.patch(`/v1/workspace/members/${owner.accountId}`, { accessRole: 'admin' })).json().accessRole).toBe('admin')
    expect((await owner.get('/v1/workspace/members')).json().members.filter((item: { accessRole: string }) => item.accessRole === 'owner'))
      .toEqual([expect.objectContaining({ accountId: admin.accountId })])
  })

  it('keeps an owner when two owners demote each other at once', async () => {
    const first = await h.member()
    const second = await inviteAndJoin(h, first, { accessRole: 'admin' })
    await first.patch(`/v1/workspace/members/${second.accountId}`, { accessRole: 'owner' })
    const answers = await Promise.all([
      first.patch(`/v1/workspace/members/${second.accountId}`, { accessRole: 'member' }),
      second.patch(`/v1/workspace/members/${first.accountId}`, { accessRole: 'member' }),
    ])
    // One wins; the other finds itself demoted (403) or the last owner (409), depending on the order.
    const [won, lost] = [...answers].sort((a, b) => a.statusCode - b.statusCode)
    expect(won!.statusCode).toBe(200)
    expect([403, 409]).toContain(lost!.statusCode)
    const owners = (await first.get('/v1/workspace/members')).json().members
    const stillOwners = [first, second].filter((person) => owners.some((item: { accountId: string; accessRole: string }) =>
      item.accountId === person.accountId && item.accessRole === 'owner'))
    expect(stillOwners).toHaveLength(1)
  })

  it('removes a member from the workspace and its projects; their session then has no workspace', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Shared' })).json()
    const member = await inviteAndJoin(h, owner, { projectId: project.id })
    expect((await owner.get(`/v1/projects/${project.id}/members`)).json()).toHaveLength(2)
    const removed = await owner.delete(`/v1/workspace/members/${member.accountId}`)
    expect(removed.json()).toEqual({ removed: true, accountId: member.accountId })
    expect((await owner.get(`/v1/projects/${project.id}/members`)).json()).toHaveLength(1)
    const locked = await member.get('/v1/workspace/members')
    expect(locked.statusCode).toBe(403)
    expect(locked.json().code).toBe('no_workspace')
    expect((await owner.delete(`/v1/workspace/members/${member.accountId}`)).statusCode).toBe(404)
    // Their next bootstrap starts over in a workspace of their own.
    expect((await member.post('/v1/account/bootstrap', {})).json().outcome).toBe('created')
  })

  it('answers 404 for a member of another workspace and 403 to members who are not managers', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    const stranger = await h.member()
    expect((await stranger.patch(`/v1/workspace/members/${member.accountId}`, { contentPermission: 'view' })).statusCode).toBe(404)
    expect((await stranger.delete(`/v1/workspace/members/${member.accountId}`)).statusCode).toBe(404)
    expect((await member.delete(`/v1/workspace/members/${owner.accountId}`)).statusCode).toBe(403)
  })
})
