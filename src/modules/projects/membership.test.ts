import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { inviteAndJoin } from '../workspace/testing.ts'

eachDatabase('project membership', (h) => {
  it('sets the caller\'s roles: joins, changes, dedupes secondary roles, and leaves', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Roles' })).json()
    const colleague = await inviteAndJoin(h, owner, { jobRole: 'engineering' })
    const joined = await colleague.put(`/v1/projects/${project.id}/membership`, { primaryRole: 'engineering', secondaryRoles: ['design', 'engineering'] })
    expect(joined.statusCode).toBe(200)
    expect(joined.json()).toMatchObject({ projectId: project.id, accountId: colleague.accountId, email: colleague.email, primaryRole: 'engineering', secondaryRoles: ['design'] })

    const changed = await colleague.put(`/v1/projects/${project.id}/membership`, { primaryRole: 'project-management' })
    expect(changed.json()).toMatchObject({ primaryRole: 'project-management', secondaryRoles: [], joinedAt: joined.json().joinedAt })
    const members = (await owner.get(`/v1/projects/${project.id}/members`)).json()
    expect(members.map((member: { accountId: string }) => member.accountId)).toEqual([owner.accountId, colleague.accountId])
    // Joining yourself notifies nobody.
    expect((await colleague.get('/v1/collaboration/notifications')).json().unreadCount).toBe(0)

    const bad = await colleague.put(`/v1/projects/${project.id}/membership`, { primaryRole: 'astronaut' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].field).toBe('primaryRole')

    expect((await colleague.delete(`/v1/projects/${project.id}/membership`)).json()).toEqual({ left: true, projectId: project.id })
    expect((await colleague.delete(`/v1/projects/${project.id}/membership`)).json()).toEqual({ left: false, projectId: project.id })
    expect((await owner.get(`/v1/projects/${project.id}/members`)).json()).toHaveLength(1)
  })

  it('lets a view member join a project (roles grant nothing) but not add others', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Observed' })).json()
    const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    expect((await viewer.put(`/v1/projects/${project.id}/membership`, { primaryRole: 'product' })).statusCode).toBe(200)
    const adding = await viewer.put(`/v1/projects/${project.id}/members/${owner.accountId}`, { primaryRole: 'product' })
    expect(adding.statusCode).toBe(403)
    // The role changed nothing about what the viewer may do.
    expect((await viewer.patch(`/v1/projects/${project.id}`, { name: 'Mine now' })).statusCode).toBe(403)
  })

  it('adds a colleague to a project and notifies them; refuses accounts outside the workspace', async () => {
    const owner = await h.member()
    await owner.patch('/v1/account/profile', { name: 'Olivia Owner' })
    const project = (await owner.post('/v1/projects', { name: 'Handover' })).json()
    const colleague = await inviteAndJoin(h, owner)
    const added = await owner.put(`/v1/projects/${project.id}/members/${colleague.accountId}`, { primaryRole: 'operations' })
    expect(added.statusCode).toBe(200)
    expect(added.json()).toMatchObject({ accountId: colleague.accountId, primaryRole: 'operations' })
    const news = (await colleague.get('/v1/collaboration/notifications')).json()
    expect(news).toMatchObject({ unreadCount: 1, notifications: [{
      kind: 'project.added', subjectType: 'project', subjectId: project.id,
      actor: { accountId: owner.accountId, name: 'Olivia Owner' }, data: { projectId: project.id, projectName: 'Handover' },
    }] })
    // Changing their roles later is not a new notification.
    await owner.put(`/v1/projects/${project.id}/members/${colleague.accountId}`, { primaryRole: 'design' })
    expect((await colleague.get('/v1/collaboration/notifications')).json().unreadCount).toBe(1)

    const stranger = await h.member()
    const outsider = await owner.put(`/v1/projects/${project.id}/members/${stranger.accountId}`, { primaryRole: 'design' })
    expect(outsider.statusCode).toBe(404)
  })
})
